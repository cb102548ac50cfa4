//! The host runtime library: every instance of the runtime's dtype-indexed
//! templates (`ksem_cvt<KI32, KF32>`, `ksem_fadd<KF64>`, ...) compiled once
//! into a shared library, so that a host build of kernels only declares them
//! (`extern template`) and links against it. Instantiating them in every
//! batch cost g++ -O0 about a third of a batch's time (docs/benchmarks.md,
//! "Seventh pass").
//!
//! The instances are read off the runtime's own text: every function
//! template whose parameters are all dtype ids (`template <int D>`,
//! `template <int F, int T>`, `template <int OD>`) is instantiated for every
//! dtype of `DType::ALL`; templates over a type or a size stay implicit.

use crate::ids::dtype_macro;
use crate::lower::RUNTIME;
use ksem_interp::dtype::DType;

/// The macro both host translation units define: the runtime's functions
/// get external linkage (`runtime.cuh`, `KSEM_FN`).
pub const LINKED: &str = "-DKSEM_HOST_LINKED";
/// The macro only the library defines: the prelude leaves out its launcher
/// and the launcher's state (`host_prelude.h`).
pub const LIBRARY: &str = "-DKSEM_HOST_RUNTIME_LIB";

/// A function template of the runtime whose parameters are all dtype ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// The return type as written (`ku64`, `bool`, `ki64`, `void`).
    pub ret: String,
    /// The function's name (`ksem_cvt`).
    pub name: String,
    /// How many dtype parameters it takes (1 or 2).
    pub arity: usize,
    /// The parameter list without default arguments (`ku64 a, bool rtz, bool sat`).
    pub params: String,
}

/// The dtype-indexed function templates of the runtime text `src`, in order.
pub fn templates(src: &str) -> Vec<Template> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(at) = rest.find("\ntemplate <") {
        rest = &rest[at + 1..];
        let Some(head) = rest.find('{').map(|b| &rest[..b]) else {
            break;
        };
        if let Some(t) = template(head) {
            out.push(t);
        }
    }
    out
}

/// The template declared by `head` (the text from `template <` to the
/// body's `{`), if it is a runtime function over dtype ids only.
fn template(head: &str) -> Option<Template> {
    let close = head.find('>')?;
    let params: Vec<&str> = head["template <".len()..close]
        .split(',')
        .map(str::trim)
        .collect();
    let dtype_ids = params
        .iter()
        .all(|p| matches!(*p, "int D" | "int F" | "int T" | "int OD"));
    let decl = head[close + 1..].trim().strip_prefix("KSEM_FN ")?;
    let open = decl.find('(')?;
    let (ret, name) = decl[..open].trim().rsplit_once(' ')?;
    let list = decl[open + 1..].trim_end().strip_suffix(')')?;
    let params_text = list
        .split(',')
        .map(|p| p.split('=').next().unwrap_or(p).trim())
        .collect::<Vec<_>>()
        .join(", ");
    dtype_ids.then(|| Template {
        ret: ret.to_string(),
        name: name.to_string(),
        arity: params.len(),
        params: params_text,
    })
}

/// Every instance of `t`: one per dtype, or per pair of dtypes.
fn instances_of(t: &Template) -> Vec<String> {
    let ids: Vec<&str> = DType::ALL.iter().map(|&d| dtype_macro(d)).collect();
    let args: Vec<String> = match t.arity {
        1 => ids.iter().map(|d| d.to_string()).collect(),
        _ => ids
            .iter()
            .flat_map(|f| ids.iter().map(move |to| format!("{f}, {to}")))
            .collect(),
    };
    args.iter()
        .map(|a| format!("{} {}<{a}>({})", t.ret, t.name, t.params))
        .collect()
}

/// The explicit instantiations of the runtime, each line `prefix` followed
/// by one instance (`template ` defines them, `extern template ` declares them).
fn instantiations(prefix: &str) -> String {
    let mut s = String::new();
    for t in templates(&RUNTIME) {
        for i in instances_of(&t) {
            s.push_str(prefix);
            s.push_str(&i);
            s.push_str(";\n");
        }
    }
    s
}

/// The library's translation unit after the prelude: the runtime and the
/// definition of every instance.
pub fn library_source() -> String {
    format!("{}\n{}", *RUNTIME, instantiations("template "))
}

/// What a kernel build includes after the prelude: the runtime, with every
/// instance declared as compiled elsewhere.
pub fn linked_header() -> String {
    format!("{}\n{}", *RUNTIME, instantiations("extern template "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_template_head_with_default_arguments() {
        let t =
            template("template <int D> KSEM_FN ku64 ksem_x(ku64 a, bool b = false, int c = 2) ")
                .expect("a dtype template");
        assert_eq!(t.ret, "ku64");
        assert_eq!(t.name, "ksem_x");
        assert_eq!(t.arity, 1);
        assert_eq!(t.params, "ku64 a, bool b, int c");
    }

    #[test]
    fn templates_over_types_or_sizes_stay_implicit() {
        assert!(template("template <int D, typename T> KSEM_FN ku64 f(const T* a) ").is_none());
        assert!(template("template <int OD, int SIZE> KSEM_FN ku64 f(ku64 p) ").is_none());
        assert!(template("template <int D> struct S ").is_none());
    }

    #[test]
    fn every_dtype_template_of_the_runtime_is_instantiated_for_every_dtype() {
        let ts = templates(&RUNTIME);
        let names: Vec<&str> = ts.iter().map(|t| t.name.as_str()).collect();
        for n in [
            "ksem_cvt",
            "ksem_fadd",
            "ksem_ld",
            "ksem_st",
            "ksem_ptradd",
            "ksem_atomic",
        ] {
            assert!(names.contains(&n), "{n} missing from {names:?}");
        }
        // a head over two lines (ksem_atomic) keeps its whole parameter list
        let atomic = ts.iter().find(|t| t.name == "ksem_atomic").unwrap();
        assert_eq!(
            atomic.params.matches(',').count() + 1,
            6,
            "{}",
            atomic.params
        );
        let n = DType::ALL.len();
        let cvt = ts.iter().find(|t| t.name == "ksem_cvt").unwrap();
        assert_eq!(instances_of(cvt).len(), n * n);
        assert!(linked_header()
            .contains("extern template ku64 ksem_cvt<KI32, KF32>(ku64 a, bool rtz, bool sat);"));
    }

    #[test]
    fn the_runtime_functions_do_not_depend_on_the_block_size() {
        // the library is built once for every KSEM_THREADS: only macros may use it
        let after = RUNTIME
            .split("#define KSEM_WORK(n)")
            .nth(1)
            .expect("the runtime defines KSEM_WORK");
        let body = after.split_once('\n').map_or("", |(_, b)| b);
        for m in [
            "KSEM_THREADS",
            "KSEM_TID",
            "threadIdx",
            "blockIdx",
            "blockDim",
            "__syncthreads",
        ] {
            assert!(!body.contains(m), "the runtime's functions use {m}");
        }
    }
}
