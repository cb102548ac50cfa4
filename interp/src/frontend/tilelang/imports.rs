//! Helpers and constants imported from the kernel's other modules:
//! `from block_causal_attention import LOG2_E, _fwd_tile_allowed` (a
//! sibling file of the example), `from .utils import helper`. Python finds
//! such a module on its path; ksem looks where Python would for a file of
//! the project: relative imports from the kernel file's package, absolute
//! ones from the kernel file's directory and each directory above it (the
//! project's source roots), then the directories of `$KSEM_PYTHONPATH`
//! (`:`-separated). A module found there is read as a TileLang module of
//! its own: its constants are copied into the importer, its helper
//! functions are inlined against its own names ([`Module::imported`]). A
//! module that is not found, or does not parse, binds nothing (a kernel
//! that uses the name is told it comes from a module ksem does not read).

use super::Module;
use crate::frontend::py::{modules, Source};
use rustpython_parser::ast;
use std::path::{Path, PathBuf};

/// Modules imported through other imported modules, at most this deep.
const MAX_DEPTH: usize = 8;

/// The files on the current import chain (a module imported again through
/// its own imports binds nothing the second time).
#[derive(Default)]
pub(super) struct Chain {
    files: Vec<PathBuf>,
}

impl Module {
    /// Binds what `from MODULE import NAME [as B]` (`f`) takes from a module
    /// of the project: a constant becomes a module constant, a helper
    /// function (or one the module itself imported) a foreign helper.
    pub(super) fn import_from(&mut self, f: &ast::StmtImportFrom, chain: &mut Chain) {
        let level = f.level.map_or(0, |l| l.to_u32() as usize);
        let module = f.module.as_deref().unwrap_or("");
        if !modules::may_be_project(module, level) {
            return;
        }
        let Some(i) = self.load(module, level, chain) else {
            return;
        };
        for a in &f.names {
            let name = a.name.as_str();
            let bound = a.asname.as_ref().unwrap_or(&a.name).to_string();
            let callee = &self.imported[i];
            if let Some(c) = callee.globals.get(name) {
                let c = c.clone();
                self.globals.insert(bound, c);
            } else if callee.helpers.contains_key(name) || callee.foreign.contains_key(name) {
                self.foreign.insert(bound, (i, name.to_string()));
            }
        }
    }

    /// The index in [`Module::imported`] of dotted module `module` (after
    /// `level` leading dots), read from its file; `None` where no file of
    /// the project has it or it does not parse.
    fn load(&mut self, module: &str, level: usize, chain: &mut Chain) -> Option<usize> {
        if chain.files.len() > MAX_DEPTH {
            return None;
        }
        let here = PathBuf::from(&self.src.file).canonicalize().ok()?;
        let dir = here.parent()?.to_path_buf();
        let path = modules::find(&modules::roots(&dir, level), module)?
            .canonicalize()
            .ok()?;
        if path == here || chain.files.contains(&path) {
            return None;
        }
        if let Some(i) = self
            .imported
            .iter()
            .position(|m| Path::new(&m.src.file) == path)
        {
            return Some(i);
        }
        let text = std::fs::read_to_string(&path).ok()?;
        let src = Source::parse(&path.display().to_string(), &text).ok()?;
        chain.files.push(here);
        let m = Module::scan_in(src, self.target, chain);
        chain.files.pop();
        self.imported.push(m);
        Some(self.imported.len() - 1)
    }
}
