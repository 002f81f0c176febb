//! sha256 digests of files and bytes: the identity of an input in the history, the batch state
//! and the caches. A leaf module.

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

/// sha256 of a file in hex, streamed (recordings can be gigabytes). Blocking: call it off the
/// async threads.
pub fn file(path: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(format!("{:x}", h.finalize()))
}

/// sha256 of bytes in hex.
pub fn bytes(data: &[u8]) -> String {
    format!("{:x}", Sha256::digest(data))
}
