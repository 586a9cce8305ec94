//! The WebAssembly exports: a request buffer, one call, an answer buffer.
//!
//! The page (`playground/www/engine.js`):
//! 1. `ptr = gjk_request_buffer(len)`: the module makes room for a request of `len` bytes and
//!    returns where to write it (valid until the next call into the module);
//! 2. writes the request's UTF-8 bytes there and calls `len = gjk_answer(len)`;
//! 3. reads `len` bytes at `gjk_answer_buffer()`: the answer's UTF-8 JSON.
//!
//! The buffers are owned by the module (thread-local vectors), so no pointer crosses the
//! boundary in the other direction and no `unsafe` block is needed: the page writes into memory
//! the module handed out, and the module reads its own vectors.

use std::cell::RefCell;

thread_local! {
    static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes room for a request of `len` bytes and returns its address in linear memory.
/// Requests longer than [`crate::MAX_REQUEST_BYTES`] get no room (the answer says so).
#[allow(unsafe_code)] // `no_mangle` fixes the exported name the page calls.
#[no_mangle]
pub extern "C" fn gjk_request_buffer(len: usize) -> *mut u8 {
    REQUEST.with_borrow_mut(|request| {
        request.clear();
        request.resize(len.min(crate::MAX_REQUEST_BYTES + 1), 0);
        request.as_mut_ptr()
    })
}

/// Answers the request of `len` bytes in the request buffer; returns the answer's length.
#[allow(unsafe_code)] // `no_mangle` fixes the exported name the page calls.
#[no_mangle]
pub extern "C" fn gjk_answer(len: usize) -> usize {
    let answer = REQUEST.with_borrow(|request| match request.get(..len) {
        Some(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => crate::answer(text),
            Err(_) => error("the request is not UTF-8"),
        },
        None => error(&format!(
            "the request claims {len} bytes but the buffer holds {} (at most {} accepted)",
            request.len(),
            crate::MAX_REQUEST_BYTES
        )),
    });
    ANSWER.with_borrow_mut(|buffer| {
        *buffer = answer.into_bytes();
        buffer.len()
    })
}

/// The address of the last answer in linear memory.
#[allow(unsafe_code)] // `no_mangle` fixes the exported name the page calls.
#[no_mangle]
pub extern "C" fn gjk_answer_buffer() -> *const u8 {
    ANSWER.with_borrow(|buffer| buffer.as_ptr())
}

fn error(message: &str) -> String {
    serde_json::json!({ "ok": false, "error": message }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The round trip the page makes, natively: write into the handed-out buffer, answer, read.
    #[test]
    fn request_buffer_round_trip() {
        let request = br#"{"example":"dyn4j","method":"classic"}"#;
        let ptr = gjk_request_buffer(request.len());
        assert!(!ptr.is_null());
        REQUEST.with_borrow_mut(|r| r.copy_from_slice(request));
        let len = gjk_answer(request.len());
        let text = ANSWER.with_borrow(|a| String::from_utf8(a.clone()).unwrap());
        assert_eq!(text.len(), len);
        assert!(text.starts_with(r#"{"#) && text.contains(r#""ok":true"#));
    }

    #[test]
    fn a_length_beyond_the_buffer_is_an_error() {
        gjk_request_buffer(4);
        gjk_answer(10);
        let text = ANSWER.with_borrow(|a| String::from_utf8(a.clone()).unwrap());
        assert!(text.contains(r#""ok":false"#) && text.contains("claims 10 bytes"));
    }
}
