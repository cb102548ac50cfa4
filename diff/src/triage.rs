//! Triage of disagreements: what kind of difference a finding is, which
//! layer is wrong (decided by rerunning it where this machine can), and a
//! signature of the program so that duplicates collapse into one bucket.
//!
//! The kind comes from the two results alone: every differing element a NaN
//! on both sides ([`DiffKind::NanBits`]), a zero of the other sign
//! ([`DiffKind::SignedZero`]), an element the reference marks as derived
//! from approximate math ([`DiffKind::Inexact`]), else [`DiffKind::Value`].
//! The layer comes from reruns: against the GPU (`cuda`), the CUDA side at
//! `ptxas -O0` agreeing with the interpreter blames ptxas, the host build
//! disagreeing too blames ksem's lowering (or its interpreter); against a
//! real system (`triton`, …), ksem's own lowering on the GPU computing the
//! interpreter's result blames the real system's compiler (ptxas, where
//! real Triton agrees at ptxas `-O0` with the same PTX), computing the
//! real system's result blames ksem's interpreter (or a toolchain bug both
//! share, told apart at `-O0`). The kinds that `docs/divergences.md`
//! documents for a real system are bucketed as those divergences, and so is
//! a difference confined to elements the operations of a documented row
//! produced (`divergence.rs`), whatever the dialect.

use crate::backend::Backend;
use crate::peer::parse_result;
use ksem_interp::dtype::DType;
use ksem_interp::float;
use ksem_interp::ir::canon::canonical;
use ksem_interp::ir::{walk, Combiner, ExprKind, Kernel, Stmt};
use ksem_interp::launch::{parse_launch, Launch, RunResult};
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hasher;
use std::path::{Path, PathBuf};

/// How two results differ (ordered from the least to the most telling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DiffKind {
    /// Every differing element is a NaN on both sides (payload or sign).
    NanBits,
    /// Every differing element is a zero on both sides, of the other sign.
    SignedZero,
    /// A differing element the reference derived from approximate math.
    Inexact,
    /// Some element has another value.
    Value,
}

impl DiffKind {
    /// The kind's name in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            DiffKind::NanBits => "nan-bits",
            DiffKind::SignedZero => "signed-zero",
            DiffKind::Inexact => "inexact",
            DiffKind::Value => "value",
        }
    }
}

/// The layer a finding blames.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bucket {
    /// A difference `docs/divergences.md` documents (which rows).
    Divergence(String),
    /// ptxas: the CUDA side (ksem's, or real Triton's) agrees with the
    /// interpreter at `-O0`.
    Ptxas,
    /// ksem's lowering (or its interpreter: the host build disagrees too).
    Lowering,
    /// ksem's lowering on the GPU only (the host build agrees).
    LoweringGpu,
    /// ksem's interpreter: ksem's own lowering computes the real system's result.
    Interpreter,
    /// The real system's compiler: ksem's lowering computes the interpreter's result.
    RealCompiler(String),
    /// Not decided here (why).
    Undecided(String),
}

impl Bucket {
    /// The bucket's name in tables and JSON.
    pub fn name(&self) -> String {
        match self {
            Bucket::Divergence(rows) => format!("documented divergence ({rows})"),
            Bucket::Ptxas => "ptxas".into(),
            Bucket::Lowering => "ksem lowering or interpreter".into(),
            Bucket::LoweringGpu => "ksem lowering (GPU only)".into(),
            Bucket::Interpreter => "ksem interpreter".into(),
            Bucket::RealCompiler(s) => format!("{s} compiler"),
            Bucket::Undecided(why) => format!("undecided ({why})"),
        }
    }
}

/// One triaged finding.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The finding's name (its files are `NAME.py`, `NAME.json`, `NAME.results.json`).
    pub name: String,
    /// The reference and the other backend, as the results name them.
    pub backends: (String, String),
    pub kind: DiffKind,
    pub bucket: Bucket,
    /// Same signature, same bucket: a duplicate.
    pub signature: String,
}

/// The kind of difference between reference `a` and `b` (`None`: they agree).
pub fn diff_kind(a: &RunResult, b: &RunResult) -> Option<DiffKind> {
    let mut worst = None;
    for ba in &a.buffers {
        let Some(bb) = b.buffers.iter().find(|x| x.name == ba.name) else {
            continue;
        };
        for (i, (&x, &y)) in ba.bits.iter().zip(&bb.bits).enumerate() {
            if x == y {
                continue;
            }
            let k = element_kind(ba.dtype, x, y, ba.inexact.get(i) == Some(&true));
            worst = worst.max(Some(k));
        }
    }
    worst
}

/// The kind of difference on buffer `name` alone (`None`: it agrees, or
/// one side lacks it).
pub fn buffer_kind(a: &RunResult, b: &RunResult, name: &str) -> Option<DiffKind> {
    let keep = |r: &RunResult| RunResult {
        buffers: r
            .buffers
            .iter()
            .filter(|x| x.name == name)
            .cloned()
            .collect(),
        ..r.clone()
    };
    diff_kind(&keep(a), &keep(b))
}

/// How one element differs.
fn element_kind(d: DType, x: u64, y: u64, inexact: bool) -> DiffKind {
    if d.is_float() {
        let (fx, fy) = (float::to_f64(d, x), float::to_f64(d, y));
        if fx.is_nan() && fy.is_nan() {
            return DiffKind::NanBits;
        }
        if fx == 0.0 && fy == 0.0 {
            return DiffKind::SignedZero;
        }
    }
    if inexact {
        DiffKind::Inexact
    } else {
        DiffKind::Value
    }
}

/// The signature of a program with a difference of kind `kind`: a hash of
/// the set of its operations (node kind and dtype, canonical form), so that
/// reduced findings of one cause collapse.
pub fn signature(k: &Kernel, kind: DiffKind) -> String {
    let k = canonical(k);
    let mut ops = BTreeSet::new();
    walk::for_each_expr(&k.body, &mut |e| {
        e.for_each(&mut |x| {
            let d = x.ty.dtype();
            let label = match &x.kind {
                ExprKind::Var(_) | ExprKind::Const(_) => return,
                ExprKind::Binary(op, a, _) => format!("{op:?}:{}", a.ty.dtype()),
                ExprKind::Unary(op, _) => format!("{op:?}:{d}"),
                ExprKind::Cast(a, c) => format!("cast{c:?}:{}->{d}", a.ty.dtype()),
                ExprKind::Reduce { combiner, .. } => match &**combiner {
                    Combiner::Custom { .. } => format!("reduce-custom:{d}"),
                    c => format!("reduce{c:?}:{d}"),
                },
                other => {
                    let s = format!("{other:?}");
                    let head: String = s.chars().take_while(|c| c.is_alphanumeric()).collect();
                    format!("{head}:{d}")
                }
            };
            ops.insert(label);
        })
    });
    walk::for_each_stmt(&k.body, &mut |s| {
        let head = match s {
            Stmt::For { .. } => "for",
            Stmt::While { .. } => "while",
            Stmt::If { .. } => "if",
            _ => return,
        };
        ops.insert(head.to_string());
    });
    let mut h = siphasher::sip::SipHasher13::new_with_keys(0, 0);
    h.write(kind.name().as_bytes());
    for op in &ops {
        h.write(op.as_bytes());
        h.write_u8(0);
    }
    format!("{:016x}", h.finish())
}

/// Reruns a finding needs: the kernel and launch, and what the machine can run.
pub struct Rerun<'a> {
    pub kernel: &'a Kernel,
    pub launch: &'a Launch,
    /// A GPU is present (cuda reruns possible).
    pub gpu: bool,
    /// The program's text and launch JSON, for reruns on the real system
    /// (`None`: none).
    pub files: Option<(&'a str, &'a Json)>,
}

/// The bucket of a finding of kind `kind` between reference `a` and the
/// other backend's result `b`.
pub fn bucket(kind: DiffKind, a: &RunResult, b: &RunResult, rerun: &Rerun) -> Bucket {
    let other = Backend::parse(&b.backend).ok();
    let peer = other.and_then(Backend::peer);
    if let Some(p) = peer {
        // what docs/divergences.md documents for the real systems
        if let Some((_, rows)) = p.kind_divergences.iter().find(|(k, _)| *k == kind) {
            return Bucket::Divergence((*rows).into());
        }
        // every differing element produced by a documented row's operations
        if let Some(rows) = crate::divergence::explain(rerun.kernel, rerun.launch, a, b) {
            return Bucket::Divergence(rows);
        }
    }
    match other {
        Some(Backend::Cuda) => cuda_side(a, rerun),
        Some(Backend::Host) => match rerun_on(Backend::Host, rerun) {
            Ok(h) if agrees(a, &h) => Bucket::Undecided("the host build agrees on a rerun".into()),
            Ok(_) => Bucket::Lowering,
            Err(e) => Bucket::Undecided(e),
        },
        Some(o) if o.peer().is_some() => real_system(o, a, b, rerun),
        _ => Bucket::Undecided(format!("no triage for backend {}", b.backend)),
    }
}

/// Blames ptxas or ksem's lowering for a disagreement with the GPU.
fn cuda_side(a: &RunResult, rerun: &Rerun) -> Bucket {
    if !rerun.gpu {
        return Bucket::Undecided("no GPU here to rerun at -O0".into());
    }
    match rerun_cuda_o0(rerun) {
        Ok(c) if agrees(a, &c) => return Bucket::Ptxas,
        Ok(_) => {}
        Err(e) => return Bucket::Undecided(e),
    }
    match rerun_on(Backend::Host, rerun) {
        Ok(h) if agrees(a, &h) => Bucket::LoweringGpu,
        Ok(_) => Bucket::Lowering,
        Err(e) => Bucket::Undecided(e),
    }
}

/// Blames the real system or ksem for a disagreement with a real system.
fn real_system(o: Backend, a: &RunResult, b: &RunResult, rerun: &Rerun) -> Bucket {
    let name = o.peer().map_or("the real system", |p| p.system);
    // ksem's own lowering: on the GPU where there is one, else the host build
    let (own, label) = if rerun.gpu {
        (rerun_on(Backend::Cuda, rerun), "cuda")
    } else {
        (rerun_on(Backend::Host, rerun), "host")
    };
    match own {
        Err(e) => Bucket::Undecided(e),
        Ok(c) if agrees(a, &c) && !rerun.gpu => Bucket::Undecided(format!(
            "{name} or the GPU toolchain: the host build agrees, no GPU here to tell"
        )),
        Ok(c) if agrees(a, &c) => match ptxas_o0(o, a, rerun) {
            Some(true) => Bucket::Ptxas,
            _ => Bucket::RealCompiler(name.into()),
        },
        Ok(c) if agrees(b, &c) && rerun.gpu => match rerun_cuda_o0(rerun) {
            // the toolchain both use is wrong (a ptxas bug reaches both)
            Ok(z) if agrees(a, &z) => Bucket::Ptxas,
            Ok(_) => Bucket::Interpreter,
            Err(e) => Bucket::Undecided(e),
        },
        Ok(c) if agrees(b, &c) => Bucket::Interpreter,
        Ok(_) => Bucket::Undecided(format!(
            "interp, {label} and {name} give three different results"
        )),
    }
}

/// Whether the real system agrees with the interpreter when it passes
/// `--opt-level 0` to ptxas (Triton: `DISABLE_PTXAS_OPT=1`, the same PTX;
/// its peer's `ptxas_o0_env`): `None` where that cannot be run here.
fn ptxas_o0(o: Backend, a: &RunResult, rerun: &Rerun) -> Option<bool> {
    let (src, launch) = rerun.files?;
    let peer = o.peer().filter(|p| !p.ptxas_o0_env.is_empty())?;
    if !rerun.gpu {
        return None;
    }
    let r = crate::peer::run_batch_env(peer, &[(src, launch)], peer.ptxas_o0_env)
        .pop()?
        .ok()?;
    Some(agrees(a, &r))
}

/// Whether two results have the same bits in every buffer they share.
fn agrees(a: &RunResult, b: &RunResult) -> bool {
    diff_kind(a, b).is_none()
}

fn rerun_on(be: Backend, rerun: &Rerun) -> Result<RunResult, String> {
    be.run_batch(&[(rerun.kernel, rerun.launch)], &Default::default())
        .pop()
        .unwrap_or_else(|| Err("no result".into()))
}

/// The CUDA side with ptxas at `-O0` (`KSEM_NVRTC_OPTIONS`, restored after).
fn rerun_cuda_o0(rerun: &Rerun) -> Result<RunResult, String> {
    static ENV: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _held = ENV.lock().unwrap_or_else(|e| e.into_inner());
    let old = std::env::var("KSEM_NVRTC_OPTIONS").ok();
    std::env::set_var("KSEM_NVRTC_OPTIONS", "-Xptxas -O0");
    let r = rerun_on(Backend::Cuda, rerun);
    match old {
        Some(v) => std::env::set_var("KSEM_NVRTC_OPTIONS", v),
        None => std::env::remove_var("KSEM_NVRTC_OPTIONS"),
    }
    r
}

/// A finding read back: its kernel, launch and the two saved results.
pub struct Saved {
    pub kernel: Kernel,
    pub launch: Launch,
    /// The reference's result (its approximate elements marked).
    pub a: RunResult,
    /// The other backend's result.
    pub b: RunResult,
}

/// Triages the finding `NAME` of directory `dir` (files `NAME.py`,
/// `NAME.json`, `NAME.results.json` as `ksem fuzz --out` writes them).
pub fn triage_finding(dir: &Path, name: &str, gpu: bool) -> Result<Finding, String> {
    let Saved {
        kernel,
        launch,
        a,
        b,
    } = read_finding(dir, name)?;
    let kind = diff_kind(&a, &b).ok_or(format!("{name}: the saved results agree"))?;
    let text = |ext: &str| std::fs::read_to_string(dir.join(format!("{name}{ext}"))).ok();
    let source = text(".py");
    let launch_json: Option<Json> = text(".json").and_then(|t| serde_json::from_str(&t).ok());
    let rerun = Rerun {
        kernel: &kernel,
        launch: &launch,
        gpu,
        files: source.as_deref().zip(launch_json.as_ref()),
    };
    Ok(Finding {
        name: name.to_string(),
        backends: (a.backend.clone(), b.backend.clone()),
        kind,
        bucket: bucket(kind, &a, &b, &rerun),
        signature: signature(&kernel, kind),
    })
}

/// Reads finding `NAME` of `dir` back (its kernel elaborated).
pub fn read_finding(dir: &Path, name: &str) -> Result<Saved, String> {
    let file = |ext: &str| -> Result<String, String> {
        let p = dir.join(format!("{name}{ext}"));
        std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))
    };
    let source = file(".py")?;
    let launch_text = file(".json")?;
    let results: Json = serde_json::from_str(&file(".results.json")?)
        .map_err(|e| format!("{name}.results.json: {e}"))?;
    let result = |k: &str| -> Result<RunResult, String> {
        let v = results
            .get(k)
            .ok_or(format!("{name}.results.json: no \"{k}\""))?;
        let mut r = parse_result(&v.to_string())?;
        // the reference's approximate elements
        for b in &mut r.buffers {
            let idx = v["buffers"][&b.name]["inexact_elements"].as_array();
            for i in idx.into_iter().flatten().filter_map(Json::as_u64) {
                if let Some(x) = b.inexact.get_mut(i as usize) {
                    *x = true;
                }
            }
        }
        Ok(r)
    };
    let (a, b) = (result("a")?, result("b")?);
    let launch = parse_launch(&launch_text).map_err(|e| format!("{name}.json: {e}"))?;
    let kernel = ksem_interp::elaborate_source(&format!("{name}.py"), &source, &launch, None)
        .map_err(|e| e.render())?;
    Ok(Saved {
        kernel,
        launch,
        a,
        b,
    })
}

/// The names of the findings of directory `dir`, in campaign order
/// (`fuzz_SEED_INDEX` by seed and index, other names after, by name).
fn finding_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            n.strip_suffix(".results.json").map(str::to_string)
        })
        .collect();
    names.sort_by_key(|n| finding_names_key(n));
    names
}

/// What merging finding directories did.
#[derive(Clone, Debug, Default)]
pub struct Merged {
    /// Findings read.
    pub read: usize,
    /// The findings kept, one per (backends, signature), in campaign order.
    pub kept: Vec<String>,
    /// Findings that could not be read.
    pub errors: Vec<String>,
}

/// Unions the findings of `dirs` (as `fuzz --out` writes them, e.g. one per
/// shard of a campaign) into `out`: of the findings with the same backends
/// and signature, only the first in campaign order is kept.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> Result<Merged, String> {
    let mut m = Merged::default();
    let mut all: Vec<(PathBuf, String)> = Vec::new();
    for d in dirs {
        all.extend(finding_names(d).into_iter().map(|n| (d.clone(), n)));
    }
    all.sort_by_key(|(_, n)| finding_names_key(n));
    let mut seen = BTreeSet::new();
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for (dir, name) in all {
        m.read += 1;
        let key = match read_finding(&dir, &name) {
            Ok(f) => match diff_kind(&f.a, &f.b) {
                Some(kind) => (
                    f.a.backend.clone(),
                    f.b.backend.clone(),
                    signature(&f.kernel, kind),
                ),
                None => {
                    m.errors.push(format!("{name}: the saved results agree"));
                    continue;
                }
            },
            Err(e) => {
                m.errors.push(e);
                continue;
            }
        };
        if !seen.insert(key) {
            continue;
        }
        for ext in [".py", ".json", ".results.json"] {
            let from = dir.join(format!("{name}{ext}"));
            let to = out.join(format!("{name}{ext}"));
            std::fs::copy(&from, &to).map_err(|e| format!("{}: {e}", from.display()))?;
        }
        m.kept.push(name);
    }
    Ok(m)
}

/// The campaign-order key of a finding's name.
fn finding_names_key(n: &str) -> (u8, u64, u64, String) {
    let mut parts = n.split('_').skip(1).map(|x| x.parse::<u64>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(s), Some(i)) => (0, s, i, n.to_string()),
        _ => (1, 0, 0, n.to_string()),
    }
}

/// The findings of a directory, triaged in name order; a finding that
/// cannot be read is reported as an error line.
pub fn triage_dir(dir: &Path, gpu: bool) -> (Vec<Finding>, Vec<String>) {
    let (mut found, mut errors) = (Vec::new(), Vec::new());
    for n in finding_names(dir) {
        match triage_finding(dir, &n, gpu) {
            Ok(f) => found.push(f),
            Err(e) => errors.push(e),
        }
    }
    (found, errors)
}

/// Buckets of findings: (bucket name, signature) → the findings' names.
pub fn buckets(found: &[Finding]) -> BTreeMap<(String, String), Vec<String>> {
    let mut m: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for f in found {
        m.entry((f.bucket.name(), f.signature.clone()))
            .or_default()
            .push(f.name.clone());
    }
    m
}

/// The buckets as a table: one line each, most findings first.
pub fn table(found: &[Finding]) -> String {
    let mut rows: Vec<((String, String), Vec<String>)> = buckets(found).into_iter().collect();
    rows.sort_by(|x, y| y.1.len().cmp(&x.1.len()).then(x.0.cmp(&y.0)));
    let mut out = format!(
        "{:<44} {:<16} {:>5}  example\n",
        "bucket", "signature", "count"
    );
    for ((b, sig), names) in rows {
        out.push_str(&format!(
            "{b:<44} {sig:<16} {:>5}  {}\n",
            names.len(),
            names[0]
        ));
    }
    out
}

/// The findings and buckets as JSON.
pub fn to_json(found: &[Finding], errors: &[String]) -> Json {
    let findings: Vec<Json> = found
        .iter()
        .map(|f| {
            json!({"name": f.name, "backends": [f.backends.0, f.backends.1],
                   "kind": f.kind.name(), "bucket": f.bucket.name(), "signature": f.signature})
        })
        .collect();
    let bucket_list: Vec<Json> = buckets(found)
        .into_iter()
        .map(|((b, s), names)| json!({"bucket": b, "signature": s, "count": names.len(), "findings": names}))
        .collect();
    json!({"findings": findings, "buckets": bucket_list, "errors": errors})
}

/// The directory a finding's files are in, and its name, from the path of
/// any of its files.
pub fn split_finding_path(p: &Path) -> Option<(PathBuf, String)> {
    let file = p.file_name()?.to_string_lossy().to_string();
    let name = file
        .strip_suffix(".results.json")
        .or_else(|| file.strip_suffix(".json"))
        .or_else(|| file.strip_suffix(".py"))?
        .to_string();
    Some((p.parent().unwrap_or(Path::new(".")).to_path_buf(), name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ksem_interp::launch::BufferResult;

    fn result(backend: &str, d: DType, bits: Vec<u64>, inexact: Vec<bool>) -> RunResult {
        RunResult {
            kernel: "k".into(),
            backend: backend.into(),
            buffers: vec![BufferResult {
                name: "o".into(),
                dtype: d,
                bits,
                inexact,
                undefined: Vec::new(),
            }],
            ub: vec![],
        }
    }

    /// The kind of a difference from the bits alone: NaN payloads, signed
    /// zeros, approximate elements, values; the most telling one wins.
    #[test]
    fn kinds_of_differences() {
        let f = DType::F32;
        let a = |bits: Vec<u64>| result("interp", f, bits, vec![false, true]);
        let b = |bits: Vec<u64>| result("triton", f, bits, vec![false, false]);
        // the same bits: no difference
        assert_eq!(diff_kind(&a(vec![1, 2]), &b(vec![1, 2])), None);
        // 0x7fffffff and 0x7fc00000 are both NaN
        assert_eq!(
            diff_kind(&a(vec![0x7fff_ffff, 2]), &b(vec![0x7fc0_0000, 2])),
            Some(DiffKind::NanBits)
        );
        // -0.0 and +0.0
        assert_eq!(
            diff_kind(&a(vec![0x8000_0000, 2]), &b(vec![0, 2])),
            Some(DiffKind::SignedZero)
        );
        // element 1 is approximate in the reference
        assert_eq!(
            diff_kind(&a(vec![1, 0x3f80_0000]), &b(vec![1, 0x3f80_0001])),
            Some(DiffKind::Inexact)
        );
        // 1.0 against 2.0 in an exact element outweighs a NaN difference
        assert_eq!(
            diff_kind(
                &a(vec![0x3f80_0000, 0x7fff_ffff]),
                &b(vec![0x4000_0000, 0x7fc0_0000])
            ),
            Some(DiffKind::Value)
        );
        // integers have no NaN or signed zero
        let i = result("interp", DType::I32, vec![0x8000_0000], vec![false]);
        let j = result("triton", DType::I32, vec![0], vec![false]);
        assert_eq!(diff_kind(&i, &j), Some(DiffKind::Value));
    }

    /// What docs/divergences.md documents for Triton is bucketed as those
    /// rows without a rerun; a value difference needs one.
    #[test]
    fn documented_kinds_against_triton() {
        let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(o):\n    tl.store(o, 1.0)\n";
        let l = parse_launch(
            r#"{"grid": [1], "args": {"o": {"buffer": {"dtype": "float32", "len": 1}}}}"#,
        )
        .unwrap();
        let k = ksem_interp::elaborate_source("k.py", src, &l, None).unwrap();
        let rerun = Rerun {
            kernel: &k,
            launch: &l,
            gpu: false,
            files: None,
        };
        let a = result("interp", DType::F32, vec![0x7fff_ffff], vec![false]);
        let b = result("triton", DType::F32, vec![0x7fc0_0000], vec![false]);
        assert_eq!(
            bucket(DiffKind::NanBits, &a, &b, &rerun),
            Bucket::Divergence("#13, #22, #30".into())
        );
        assert_eq!(
            bucket(DiffKind::SignedZero, &a, &b, &rerun),
            Bucket::Divergence("#23".into())
        );
        // against cuda without a GPU: undecided, saying why
        let c = result("cuda", DType::F32, vec![0x7fc0_0000], vec![false]);
        assert!(matches!(
            bucket(DiffKind::Value, &a, &c, &rerun),
            Bucket::Undecided(_)
        ));
    }

    /// Duplicates collapse: the same operations and kind give one signature,
    /// another operation another.
    #[test]
    fn signatures_collapse_duplicates() {
        let l = parse_launch(r#"{"grid": [1], "args": {"x": {"buffer": {"dtype": "int32", "len": 4}}, "o": {"buffer": {"dtype": "int32", "len": 4}}}}"#).unwrap();
        let k = |body: &str| {
            let src = format!("import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, o):\n    offs = tl.arange(0, 4)\n    v = tl.load(x + offs)\n    tl.store(o + offs, {body})\n");
            ksem_interp::elaborate_source("k.py", &src, &l, None).unwrap()
        };
        let s1 = signature(&k("v >> 3"), DiffKind::Value);
        let s2 = signature(&k("v >> 5"), DiffKind::Value);
        let s3 = signature(&k("v << 3"), DiffKind::Value);
        assert_eq!(s1, s2, "constants do not split a bucket");
        assert_ne!(s1, s3, "another operation is another bucket");
        assert_ne!(s1, signature(&k("v >> 3"), DiffKind::NanBits));
    }
}
