//! Elaborated kernels by what determines them: the file, its source, the
//! dialect and the launch spec without buffer contents (which the host
//! passes apart, as bytes). A test that launches the same kernel again with
//! new data skips parsing and elaboration, as Triton's JIT cache does.

use ksem_interp::frontend::Dialect;
use ksem_interp::ir::Kernel;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Entries kept before the cache starts over.
const CAPACITY: usize = 256;

/// What an elaboration depends on.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub file: String,
    pub src: String,
    pub dialect: Option<&'static str>,
    pub launch_json: String,
}

impl Key {
    pub fn new(file: &str, src: &str, dialect: Option<Dialect>, launch_json: &str) -> Key {
        Key {
            file: file.to_string(),
            src: src.to_string(),
            dialect: dialect.map(Dialect::name),
            launch_json: launch_json.to_string(),
        }
    }
}

static KERNELS: Mutex<Option<HashMap<Key, Arc<Kernel>>>> = Mutex::new(None);

/// The kernel elaborated earlier for `key`, if any.
pub fn get(key: &Key) -> Option<Arc<Kernel>> {
    let guard = KERNELS.lock().ok()?;
    guard.as_ref()?.get(key).cloned()
}

/// Remembers `kernel` for `key`.
pub fn put(key: Key, kernel: Arc<Kernel>) {
    if let Ok(mut guard) = KERNELS.lock() {
        let map = guard.get_or_insert_with(HashMap::new);
        if map.len() >= CAPACITY {
            map.clear();
        }
        map.insert(key, kernel);
    }
}
