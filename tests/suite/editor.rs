//! `variantlab lsp`, driven as an editor drives it: JSON-RPC over the program's
//! standard input and output.

use crate::common;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Editor {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next: i64,
}

const URI: &str = "file:///work/games/chess.var";

impl Editor {
    fn start() -> Editor {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Editor {
            child,
            input,
            output,
            next: 1,
        }
    }

    fn send_bytes(&mut self, body: &[u8]) {
        write!(self.input, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        self.input.write_all(body).unwrap();
        self.input.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        let m = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send_bytes(m.to_string().as_bytes());
    }

    /// Sends a request and reads up to its answer; notifications on the way are kept.
    fn request(&mut self, method: &str, params: Value) -> (Value, Vec<Value>) {
        let id = self.next;
        self.next += 1;
        let m = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_bytes(m.to_string().as_bytes());
        let mut notes = Vec::new();
        loop {
            let m = self.receive().expect("an answer");
            if m["id"] == json!(id) {
                return (m, notes);
            }
            notes.push(m);
        }
    }

    fn receive(&mut self) -> Option<Value> {
        let mut length = None;
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = Some(n.parse::<usize>().unwrap());
            }
        }
        let mut body = vec![0; length?];
        self.output.read_exact(&mut body).ok()?;
        Some(serde_json::from_slice(&body).unwrap())
    }

    fn initialize(&mut self) -> Value {
        let (answer, _) = self.request("initialize", json!({"capabilities": {}}));
        self.notify("initialized", json!({}));
        answer
    }

    fn open(&mut self, text: &str) -> Value {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "variant", "version": 1, "text": text}}),
        );
        self.receive().expect("diagnostics")
    }

    fn change(&mut self, version: i64, text: &str) -> Value {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}),
        );
        self.receive().expect("diagnostics")
    }

    fn at(&mut self, method: &str, text: &str, place: (&str, usize)) -> Value {
        let (line, character) = position(text, place);
        let params = json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character},
                            "context": {"includeDeclaration": true}});
        self.request(method, params).0
    }

    fn finish(mut self) {
        let (answer, _) = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        self.notify("exit", Value::Null);
        assert!(self.child.wait().unwrap().success());
    }
}

/// One field of each item of an answer's list.
fn listed<'a>(answer: &'a Value, field: &str) -> Vec<&'a str> {
    answer["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i[field].as_str().unwrap())
        .collect()
}

/// The document's outline, as the server answers it.
fn outline(editor: &mut Editor) -> Value {
    editor
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        )
        .0
}

/// The labels of a completion answer.
fn labels_of(done: &Value) -> Vec<&str> {
    listed(done, "label")
}

/// Completion at `place` once the editor has sent `text`.
fn completed(editor: &mut Editor, text: &str, place: (&str, usize)) -> Value {
    editor.change(5, text);
    editor.at("textDocument/completion", text, place)
}

/// The line and column (ASCII text) of the `k`th byte of the first `needle`.
fn position(text: &str, (needle, k): (&str, usize)) -> (usize, usize) {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle}")) + k;
    let line = text[..at].matches('\n').count();
    (line, at - text[..at].rfind('\n').map_or(0, |i| i + 1))
}

fn chess() -> String {
    std::fs::read_to_string(common::root().join("variants/chess.var")).unwrap()
}

/// `variantlab check`'s diagnostics of a text: each code with its line and column
/// (from 1), as its report prints them.
fn checked_by_the_command(text: &str) -> Vec<(String, usize, usize)> {
    let dir = common::scratch("editor-check", &[]);
    std::fs::write(dir.join("chess.var"), text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["check", "chess.var"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut found = Vec::new();
    let mut code = None;
    for line in report.lines() {
        let line = line.trim();
        if line.starts_with("variantlab::") {
            code = Some(line.to_string());
        } else if let Some(place) = line.strip_prefix("╭─[chess.var:")
            && let Some(c) = code.take()
        {
            let place = place.trim_end_matches(']');
            let (l, col) = place.split_once(':').unwrap();
            found.push((c, l.parse().unwrap(), col.parse().unwrap()));
        }
    }
    found
}

#[test]
fn an_editor_gets_the_checkers_diagnostics_completion_hover_names_and_layout() {
    let mut editor = Editor::start();
    let init = editor.initialize();
    let caps = &init["result"]["capabilities"];
    for cap in [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "documentSymbolProvider",
        "documentFormattingProvider",
    ] {
        assert_eq!(caps[cap], json!(true), "{cap}: {init}");
    }
    assert!(caps.get("renameProvider").is_none(), "{init}");

    // A good file: no diagnostics.
    let good = chess();
    let note = editor.open(&good);
    assert_eq!(note["method"], "textDocument/publishDiagnostics");
    assert_eq!(note["params"]["diagnostics"], json!([]), "{note}");

    // Two mistakes: the same codes at the same places as `variantlab check`.
    let broken = good
        .replacen("slide orthogonal", "slide orthoganal", 1)
        .replacen("King e8", "Kign e8", 1);
    let note = editor.change(2, &broken);
    assert_eq!(note["params"]["version"], json!(2));
    let mine: Vec<(String, usize, usize)> = note["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let start = &d["range"]["start"];
            (
                d["code"].as_str().unwrap().to_string(),
                start["line"].as_u64().unwrap() as usize + 1,
                start["character"].as_u64().unwrap() as usize + 1,
            )
        })
        .collect();
    let theirs = checked_by_the_command(&broken);
    assert_eq!(theirs.len(), 2, "{theirs:?}");
    assert_eq!(mine, theirs);
    let first = &note["params"]["diagnostics"][0];
    assert!(
        first["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `orthogonal`"),
        "{first}"
    );

    // While the file is broken, hover still draws a piece from the last version that
    // checked, as `variantlab footprint` draws it.
    let hover = editor.at("textDocument/hover", &broken, ("Rook a1", 1));
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    let drawn = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["footprint", "variants/chess.var", "Rook"])
        .current_dir(common::root())
        .output()
        .unwrap();
    let drawn = String::from_utf8(drawn.stdout).unwrap();
    assert!(shown.contains(drawn.trim_end()), "{shown}\n---\n{drawn}");
    assert!(shown.starts_with("**Rook** (R)"), "{shown}");
    // Hover on a move line: its piece's footprint and rule as written, then what the
    // word means (its word index entry).
    let hover = editor.at("textDocument/hover", &broken, ("slide any", 2));
    let shown = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(shown.starts_with("**Queen** (Q)"), "{shown}");
    assert!(
        shown.contains("piece Queen (Q) {\n  slide any\n}"),
        "{shown}"
    );
    assert!(
        shown.contains("`slide`") && shown.contains("straight line"),
        "{shown}"
    );
    // Words of comments are prose: no hover.
    let hover = editor.at("textDocument/hover", &broken, ("# The studio draws", 2));
    assert_eq!(hover["result"], Value::Null, "{hover}");
    // Outside any piece: the word alone.
    let hover = editor.at("textDocument/hover", &broken, ("stalemate: draw", 12));
    let shown = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(shown.starts_with("`draw`"), "{shown}");

    // Completion of a half-typed word, and of a piece's name.
    let typed = good.replacen("  slide diagonal", "  sli", 1);
    editor.change(3, &typed);
    let done = editor.at("textDocument/completion", &typed, ("  sli\n", 5));
    let labels = labels_of(&done);
    assert_eq!(labels, ["slide"], "{done}");
    let typed = good.replacen("Queen d1, King e1", "Queen d1, Kin", 1);
    editor.change(4, &typed);
    let done = editor.at("textDocument/completion", &typed, ("Kin,", 3));
    let items = done["result"].as_array().unwrap();
    assert!(
        items
            .iter()
            .any(|i| i["label"] == "King" && i["detail"] == "piece"),
        "{done}"
    );
    // Nothing inside a comment.
    let done = completed(
        &mut editor,
        &good.replacen("# The studio draws", "# The sli studio draws", 1),
        ("# The sli", 9),
    );
    assert_eq!(done["result"], json!([]), "{done}");
    // Directions of this board where a direction fits.
    let done = completed(
        &mut editor,
        &good.replacen("  slide diagonal", "  slide N", 1),
        ("slide N\n", 7),
    );
    let labels = labels_of(&done);
    assert!(
        labels.contains(&"NE") && labels.contains(&"NW"),
        "{labels:?}"
    );
    // A player's forward is a direction of this board, not a piece or a word.
    let done = completed(
        &mut editor,
        &good.replacen("forward north,", "forward nor,", 1),
        ("forward nor,", 11),
    );
    assert_eq!(labels_of(&done), ["north"], "{done}");
    // Only the kind of name the statement takes: pieces where a piece goes (no
    // player `Black` for `Bl`), and no name where the grammar takes none.
    let done = completed(
        &mut editor,
        &good.replacen("Queen d1, King e1", "Queen d1, Bl e1", 1),
        ("Bl e1", 2),
    );
    assert_eq!(done["result"], json!([]), "{done}");
    let done = completed(
        &mut editor,
        &good.replacen("Queen d1, King e1", "Queen d1, Bi e1", 1),
        ("Bi e1", 2),
    );
    assert_eq!(labels_of(&done), ["Bishop"], "{done}");
    let done = completed(
        &mut editor,
        &good.replacen("  slide diagonal", "  Kn", 1),
        ("  Kn\n", 4),
    );
    assert_eq!(done["result"], json!([]), "{done}");

    // Definitions and references of a name; the outline.
    editor.change(6, &good);
    let def = editor.at("textDocument/definition", &good, ("Rook a1", 1));
    let (line, character) = position(&good, ("piece Rook", 6));
    assert_eq!(
        def["result"]["range"]["start"],
        json!({"line": line, "character": character})
    );
    let refs = editor.at("textDocument/references", &good, ("piece Rook", 7));
    // Each `Rook`, and its code where it is declared.
    let expected = good.matches("Rook").count() + 1;
    assert_eq!(refs["result"].as_array().unwrap().len(), expected, "{refs}");
    let def = editor.at("textDocument/definition", &good, ("(R)", 1));
    assert_eq!(
        def["result"]["range"]["start"],
        json!({"line": line, "character": character})
    );
    // A syntax error elsewhere leaves the other statements' names readable.
    let broken = good.replacen("  slide any", "  slyde any", 1);
    editor.change(6, &broken);
    let def = editor.at("textDocument/definition", &broken, ("Rook a1", 1));
    assert_eq!(
        def["result"]["range"]["start"],
        json!({"line": line, "character": character}),
        "{def}"
    );
    let first = outline(&mut editor);
    let names = listed(&first, "name");
    assert!(
        names.contains(&"Rook") && !names.contains(&"Queen"),
        "{names:?}"
    );
    editor.change(6, &good);
    let outline = outline(&mut editor);
    let names = listed(&outline, "name");
    assert_eq!(
        names,
        [
            "White",
            "Black",
            "far",
            "King",
            "Queen",
            "Rook",
            "Bishop",
            "Knight",
            "Pawn",
            "setup",
            "game ends"
        ]
    );
    // A piece's symbol spans its whole statement; its name is what is selected.
    let rook = &outline["result"][5];
    assert_eq!(rook["name"], "Rook");
    let (end_line, _) = position(&good, ("slide orthogonal\n}", 17));
    assert_eq!(rook["range"]["end"]["line"], json!(end_line), "{rook}");
    assert_eq!(
        rook["selectionRange"]["start"],
        json!({"line": line, "character": character})
    );

    // Highlighting follows the grammar's words and the file's names.
    let (tokens, _) = editor.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": URI}}),
    );
    let legend: Vec<String> = caps["semanticTokensProvider"]["legend"]["tokenTypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let data: Vec<u64> = tokens["result"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    let mut decoded = std::collections::HashMap::new();
    let (mut line, mut col) = (0, 0);
    for t in data.chunks(5) {
        if t[0] > 0 {
            col = 0;
        }
        line += t[0] as usize;
        col += t[1] as usize;
        decoded.insert(
            (line, col),
            (t[2] as usize, legend[t[3] as usize].clone(), t[4]),
        );
    }
    let token = |place: (&str, usize)| decoded.get(&position(&good, place)).cloned();
    assert_eq!(token(("piece King", 0)), Some((5, "keyword".into(), 0)));
    assert_eq!(token(("piece King", 6)), Some((4, "class".into(), 1)));
    assert_eq!(token(("Rook a1", 0)), Some((4, "class".into(), 0)));
    assert_eq!(token(("Rook a1", 5)), Some((2, "parameter".into(), 0)));
    assert_eq!(token(("White: Rook", 0)), Some((5, "enumMember".into(), 0)));
    assert_eq!(token(("square 8", 7)), Some((1, "number".into(), 0)));
    assert_eq!(token(("\"Chess\"", 0)), Some((7, "string".into(), 0)));
    assert_eq!(
        token(("# Orthodox", 0)).map(|t| t.1),
        Some("comment".into())
    );

    // Nothing is renamed: the server offers no renaming, and says so.
    let renamed = editor.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}, "newName": "Tower"}),
    );
    assert_eq!(renamed.0["error"]["code"], json!(-32601), "{:?}", renamed.0);

    // Formatting gives the layout `variantlab fmt` gives.
    let messy = good
        .replace("\n  ", "\n\t   ")
        .replace("step 1 any", "step  1   any");
    editor.change(7, &messy);
    let (edits, _) = editor.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let edits = edits["result"].as_array().unwrap().clone();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["newText"].as_str().unwrap(), good);
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    editor.finish();
}

/// Reads everything the server writes until it ends: its messages.
fn all_messages(mut editor: Editor) -> (Vec<Value>, bool) {
    drop(editor.input);
    let mut seen = Vec::new();
    let mut e2 = editor.output;
    let mut rest = Vec::new();
    e2.read_to_end(&mut rest).unwrap();
    let mut r = BufReader::new(&rest[..]);
    loop {
        let mut length = None;
        let mut line = String::new();
        while r.read_line(&mut line).unwrap() > 0 && line.trim_end() != "" {
            if let Some(n) = line.trim_end().strip_prefix("Content-Length: ") {
                length = Some(n.parse::<usize>().unwrap());
            }
            line.clear();
        }
        let Some(n) = length else { break };
        let mut body = vec![0; n];
        r.read_exact(&mut body).unwrap();
        seen.push(serde_json::from_slice(&body).unwrap());
    }
    let ok = editor.child.wait().unwrap().success();
    (seen, ok)
}

#[test]
fn broken_messages_are_refused_without_losing_the_session_or_memory() {
    let mut editor = Editor::start();
    // Before `initialize`: refused, with the protocol's code.
    let (early, _) = editor.request("textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], json!(-32002), "{early}");
    editor.initialize();
    let (again, _) = editor.request("initialize", json!({"capabilities": {}}));
    assert_eq!(again["error"]["code"], json!(-32600), "{again}");
    // A body that is not JSON-RPC is skipped with a note in the log; the next request
    // is answered.
    editor.send_bytes(b"{not json");
    let (answer, notes) = editor.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.var"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(notes[0]["method"], "window/logMessage", "{notes:?}");
    // A document never opened, and parameters of the wrong shape: invalid params.
    assert_eq!(answer["error"]["code"], json!(-32602), "{answer}");
    let (answer, _) = editor.request("textDocument/hover", json!({"position": "here"}));
    assert_eq!(answer["error"]["code"], json!(-32602), "{answer}");
    // Text that is not a variant, and positions past the end, are answered.
    editor.open("\u{0}\u{fffd} piece {{{{ ((( \"\"\"");
    let (answer, _) = editor.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": URI}, "position": {"line": 99, "character": 99}}),
    );
    assert!(answer["result"].is_array(), "{answer}");
    let (answer, _) = editor.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(answer["error"]["code"], json!(-32803), "{answer}");
    // A file past the size variantlab reads is one diagnostic, not a long wait.
    let huge = "# x\n".repeat(300_000);
    let note = editor.change(2, &huge);
    let message = note["params"]["diagnostics"][0]["message"]
        .as_str()
        .unwrap();
    assert!(message.contains("at most"), "{message}");
    // A length past the limit ends the session at once, without reading (or holding)
    // the bytes it names.
    write!(editor.input, "Content-Length: 99999999999999\r\n\r\n").unwrap();
    editor.input.flush().unwrap();
    let (_, ok) = all_messages(editor);
    assert!(!ok, "a broken stream is an error");

    // `exit` without `shutdown` ends the server with failure, as the protocol says.
    let mut editor = Editor::start();
    editor.initialize();
    editor.notify("exit", Value::Null);
    assert!(!editor.child.wait().unwrap().success());

    // Input that ends mid-header: the server stops; a closed input ends it cleanly.
    let mut editor = Editor::start();
    editor.initialize();
    editor.input.write_all(b"Content-Length: 10\r\n").unwrap();
    let (_, ok) = all_messages(editor);
    assert!(!ok);
    let mut editor = Editor::start();
    editor.initialize();
    let (_, ok) = all_messages(editor);
    assert!(ok);
}

/// The block of docs/editors.md whose info string is `info`.
fn documented(info: &str) -> String {
    let doc = std::fs::read_to_string(common::root().join("docs/editors.md")).unwrap();
    let start = doc
        .find(&format!("```{info}\n"))
        .unwrap_or_else(|| panic!("{info}"))
        + info.len()
        + 4;
    doc[start..start + doc[start..].find("```").unwrap()].to_string()
}

#[test]
fn neovim_with_the_documented_configuration_shows_the_checkers_diagnostics_and_formats() {
    let Ok(version) = Command::new("nvim").arg("--version").output() else {
        assert!(
            !common::tools_required(),
            "CI installs Neovim (Debian's package)"
        );
        common::skip("neovim", "nvim is not installed");
        return;
    };
    assert!(version.status.success());
    let dir = common::scratch("editor-neovim", &[]);
    // Not laid out, and with a misspelt direction (a mistake the parse gets past).
    let good = chess().replacen("slide orthogonal", "slide orthoganal", 1);
    let messy = good.replace("\n  ", "\n\t    ");
    std::fs::write(dir.join("chess.var"), &messy).unwrap();
    let result = dir.join("result.json");
    let driver = format!(
        r#"
vim.api.nvim_create_autocmd("VimEnter", {{ callback = function()
  vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  local found = {{}}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local lsp = d.user_data and d.user_data.lsp or {{}}
    table.insert(found, {{ line = d.lnum, col = d.col, code = d.code or lsp.code or "", message = d.message }})
  end
  if vim.lsp.buf.format then vim.lsp.buf.format({{ timeout_ms = 10000 }})
  else vim.lsp.buf.formatting_sync(nil, 10000) end
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.fn.writefile({{ vim.fn.json_encode({{ diagnostics = found, lines = lines }}) }}, "{}")
  vim.cmd("qa!")
end }})
"#,
        result.display()
    );
    std::fs::write(
        dir.join("init.lua"),
        documented("lua editor neovim") + &driver,
    )
    .unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_variantlab"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut nvim = Command::new("nvim")
        .args([
            "--headless",
            "-n",
            "-i",
            "NONE",
            "-u",
            "init.lua",
            "chess.var",
        ])
        .current_dir(&dir)
        .env("PATH", path)
        .env("HOME", dir.as_os_str())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while nvim.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(90) {
            let _ = nvim.kill();
            panic!("Neovim did not finish");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let shown: Value = serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap();
    let found: Vec<(String, usize, usize)> = shown["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap() as usize + 1,
                d["col"].as_u64().unwrap() as usize + 1,
            )
        })
        .collect();
    assert_eq!(found.len(), 1, "{shown}");
    assert_eq!(found, checked_by_the_command(&messy), "{shown}");
    let lines: Vec<&str> = shown["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(
        lines.join("\n") + "\n",
        good,
        "formatted as `variantlab fmt` lays it out"
    );
}
