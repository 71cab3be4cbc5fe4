//! `variantlab lsp`: a language server for variant files, over standard input and
//! output. Editors get the checker's own diagnostics as the file is typed, completion
//! of the words that fit, a piece's footprint on hover, definitions and references of
//! names, the file's outline, and the canonical layout of `variantlab fmt`.
//!
//! The message types are lsp-server's and lsp-types'; the framing is read here, with
//! bounds (see [`frame`]). One thread answers in order: checking a file takes
//! milliseconds, so nothing needs to run beside it.

mod answers;
mod document;
mod frame;
mod hover;
mod outline;
mod text;

use frame::{Read1, read_message};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    PublishDiagnosticsParams, Uri,
};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};

/// The most documents kept open at once; past it, a new one is not followed.
const MAX_DOCUMENTS: usize = 256;

/// An open document: its text as the editor last sent it.
struct Document {
    text: String,
    version: i32,
    /// The last version that checked: what completion and hover read while the text
    /// has mistakes.
    last_good: Option<document::Checked>,
    /// The diagnostics of this text: an unknown name among them tells completion
    /// what kind of name the checker wants there.
    diagnostics: Vec<lsp_types::Diagnostic>,
}

/// The server's state between messages.
#[derive(Default)]
struct Server {
    documents: HashMap<Uri, Document>,
    initialized: bool,
    shutting_down: bool,
}

/// Serves one editor over standard input and output until it says `exit` or the
/// input ends.
pub fn language_server() -> io::Result<()> {
    serve(io::stdin().lock(), io::stdout().lock())
}

/// Serves one editor: reads messages from `input`, writes answers to `output`.
pub fn serve(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut server = Server::default();
    loop {
        let message = match read_message(&mut input)? {
            Read1::End => return Ok(()),
            Read1::Skipped(why) => {
                log(&mut output, &why)?;
                continue;
            }
            Read1::Message(m) => m,
        };
        let replies = match message {
            Message::Request(r) => vec![Message::Response(server.answer(r))],
            // The protocol's exit code: 0 after `shutdown`, 1 without it.
            Message::Notification(n) if n.method == "exit" => {
                return match server.shutting_down {
                    true => Ok(()),
                    false => Err(io::Error::other("`exit` came before `shutdown`")),
                };
            }
            Message::Notification(n) => server.take(n),
            Message::Response(_) => vec![],
        };
        for m in replies {
            m.write(&mut output)?;
        }
    }
}

/// A message for the editor's log.
fn note(text: &str) -> Message {
    let params = lsp_types::LogMessageParams {
        typ: lsp_types::MessageType::WARNING,
        message: format!("variantlab: {text}"),
    };
    Message::Notification(Notification::new("window/logMessage".into(), params))
}

fn log(output: &mut impl Write, text: &str) -> io::Result<()> {
    note(text).write(output)
}

fn failure(id: RequestId, code: ErrorCode, message: impl Into<String>) -> Response {
    Response::new_err(id, code as i32, message.into())
}

impl Server {
    fn answer(&mut self, r: Request) -> Response {
        if r.method == "initialize" {
            if self.initialized {
                return failure(r.id, ErrorCode::InvalidRequest, "already initialized");
            }
            self.initialized = true;
            return Response::new_ok(r.id, answers::initialize_result());
        }
        if !self.initialized {
            return failure(r.id, ErrorCode::ServerNotInitialized, "initialize first");
        }
        if self.shutting_down {
            return failure(
                r.id,
                ErrorCode::InvalidRequest,
                "the server is shutting down",
            );
        }
        if r.method == "shutdown" {
            self.shutting_down = true;
            return Response::new_ok(r.id, ());
        }
        let id = r.id.clone();
        match answers::answer(&r, &|uri| self.documents.get(uri).map(|d| d.view())) {
            Ok(Some(value)) => Response::new_ok(id, value),
            Ok(None) => failure(
                id,
                ErrorCode::MethodNotFound,
                format!("no `{}` here", r.method),
            ),
            Err(e) => failure(id, e.0, e.1),
        }
    }

    /// Follows a notification; the diagnostics to publish, if the text changed.
    fn take(&mut self, n: Notification) -> Vec<Message> {
        if !self.initialized || self.shutting_down {
            return vec![];
        }
        let uri = match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = n.extract::<DidOpenTextDocumentParams>("textDocument/didOpen") else {
                    return vec![];
                };
                let d = p.text_document;
                if self.documents.len() >= MAX_DOCUMENTS && !self.documents.contains_key(&d.uri) {
                    return vec![note(&format!(
                        "{MAX_DOCUMENTS} files are open: `{}` is not followed until one closes",
                        d.uri.as_str()
                    ))];
                }
                let doc = Document {
                    text: d.text,
                    version: d.version,
                    last_good: None,
                    diagnostics: vec![],
                };
                self.documents.insert(d.uri.clone(), doc);
                d.uri
            }
            "textDocument/didChange" => {
                let Ok(p) = n.extract::<DidChangeTextDocumentParams>("textDocument/didChange")
                else {
                    return vec![];
                };
                let Some(doc) = self.documents.get_mut(&p.text_document.uri) else {
                    return vec![];
                };
                // Full sync: the last change is the whole text. A change of a range
                // breaks the agreement; the text is kept as it was.
                let Some(change) = p.content_changes.into_iter().last() else {
                    return vec![];
                };
                if change.range.is_some() {
                    return vec![note(
                        "a change of a range came; this server takes whole texts",
                    )];
                }
                doc.text = change.text;
                doc.version = p.text_document.version;
                p.text_document.uri
            }
            "textDocument/didClose" => {
                if let Ok(p) = n.extract::<DidCloseTextDocumentParams>("textDocument/didClose") {
                    self.documents.remove(&p.text_document.uri);
                    // The closed file's marks go with it.
                    let params = PublishDiagnosticsParams::new(p.text_document.uri, vec![], None);
                    return vec![publish(params)];
                }
                return vec![];
            }
            _ => return vec![],
        };
        let Some(doc) = self.documents.get_mut(&uri) else {
            return vec![];
        };
        let (diagnostics, good) = answers::check(&uri, &doc.text);
        if good.is_some() {
            doc.last_good = good;
        }
        doc.diagnostics = diagnostics.clone();
        vec![publish(PublishDiagnosticsParams::new(
            uri,
            diagnostics,
            Some(doc.version),
        ))]
    }
}

fn publish(params: PublishDiagnosticsParams) -> Message {
    Message::Notification(Notification::new(
        "textDocument/publishDiagnostics".into(),
        params,
    ))
}

impl Document {
    fn view(&self) -> document::View<'_> {
        document::View {
            text: &self.text,
            last_good: self.last_good.as_ref(),
            diagnostics: &self.diagnostics,
        }
    }
}
