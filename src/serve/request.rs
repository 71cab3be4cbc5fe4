//! Reading requests: JSON bodies, query strings, percent-encoding, option settings.

use super::answer::{Answer, shown};
use crate::Settings;
use serde_json::Value;

pub(super) fn parse_body(body: &[u8]) -> Result<Value, Answer> {
    let v: Value = serde_json::from_slice(body)
        .map_err(|e| Answer::error(400, format!("the body is not JSON: {e}")))?;
    if v.is_object() {
        Ok(v)
    } else {
        Err(Answer::error(400, "the body must be a JSON object"))
    }
}

pub(super) fn field(v: &Value, name: &str) -> Result<String, Answer> {
    match v.get(name) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(Answer::error(400, format!("`{name}` must be a string"))),
        None => Err(Answer::error(400, format!("`{name}` is missing"))),
    }
}

/// `a=1&b=x%20y` to pairs, percent-decoded.
pub(super) fn parse_query(q: &str) -> Result<Vec<(String, String)>, Answer> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Ok((decode(k)?, decode(v)?))
        })
        .collect()
}

pub(super) fn decode(s: &str) -> Result<String, Answer> {
    let bad = || Answer::error(400, format!("`{}` is not valid percent-encoding", shown(s)));
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                // Two hex digits: `from_str_radix` alone would take a sign (`%+5`).
                let hex = b.get(i + 1..i + 3).ok_or_else(bad)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return Err(bad());
                }
                let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// `a=on,b=off` to option settings.
pub(super) fn parse_settings(s: &str) -> Result<Settings, Answer> {
    let list: Vec<&str> = s.split(',').filter(|p| !p.trim().is_empty()).collect();
    Settings::parse(&list).map_err(|e| Answer::error(400, e.to_string()))
}
