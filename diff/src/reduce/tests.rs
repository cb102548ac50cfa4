//! The reducer on fuzz seed 4306 program 1508 (a 32×16 integer kernel with
//! a mask, a row `tl.sum` and a branch on the program id, the finding of
//! issue 27; its text in `fixtures/`) against a simulated real system.

use super::*;

/// A "real system" with one compiler bug: every `X == -1` it compiles is
/// computed as `X == 1` (as real Triton 3.6 did on program 1508 in some
/// lanes). It runs ksem's interpreter on the rewritten source; the
/// candidates it sees are counted.
struct EqMinusOneBug {
    seen: usize,
}

impl Oracle for EqMinusOneBug {
    fn disagreement(&mut self, source: &str, launch: &Json) -> Result<Disagreement, String> {
        self.seen += 1;
        let l = parse_launch(&launch.to_string())?;
        let run = |src: &str| -> Result<RunResult, String> {
            let k = ksem_interp::elaborate_source("t.py", src, &l, None).map_err(|e| e.render())?;
            let r = Backend::Interp.run(&k, &l, &RunOptions::default())?;
            if r.ub.is_empty() {
                Ok(r)
            } else {
                Err("UB".into())
            }
        };
        let a = run(source)?;
        let b = run(&source.replace("== (-1)", "== 1").replace("== -1", "== 1"))?;
        disagree(a, b)
    }
}

/// Program 1508 as the generator made it then (`ksem gen --seed 4306
/// --index 1508 --real-peer` before the guard passes changed the printed
/// divisor guard), kept as text so the reducer is tested on the issue's
/// kernel whatever the generator makes today.
fn program_1508() -> (String, Json) {
    let src = include_str!("fixtures/program_1508.py");
    let launch = include_str!("fixtures/program_1508.json");
    let launch = serde_json::from_str(launch).expect("the fixture's launch parses");
    (src.to_string(), launch)
}

/// The fixture is the program of issue 27.
#[test]
fn program_1508_is_the_issues_kernel() {
    let (src, launch) = program_1508();
    assert!(src.contains("t3 = (x1 - x0).to(tl.int32)"), "{src}");
    assert!(src.contains("((t3 == 0) | (t3 == (-1)))"), "{src}");
    assert!(src.contains("tl.sum("), "{src}");
    assert_eq!(launch["grid"], json!([3]));
}

/// Against the simulated bug the reducer keeps the inputs, shrinks the
/// program to a few statements and keeps the comparison with -1; the
/// candidates it keeps all disagree the same way (a value difference on
/// out0_ptr).
#[test]
fn reduces_program_1508_against_a_simulated_compiler_bug() {
    let (src, launch) = program_1508();
    let mut o = EqMinusOneBug { seen: 0 };
    let r = reduce_with(&src, &launch, &mut o, Budget::default()).expect("it disagrees");
    eprintln!(
        "{}\n{:?} -> {:?}, {} steps of {} tried",
        r.source, r.before, r.after, r.steps, r.tried
    );
    assert!(
        r.source.contains("== -1") || r.source.contains("== (-1)"),
        "{}",
        r.source
    );
    // the imports, the def and at most three statements
    assert!(r.after.statements <= 6, "{:?}\n{}", r.after, r.source);
    assert!(
        r.after.expressions * 3 <= r.before.expressions,
        "{:?}",
        r.after
    );
    assert!(r.after.elements < r.before.elements, "{:?}", r.after);
    // the original inputs are still the launch's
    assert_eq!(
        r.launch["args"]["in0_ptr"].get("buffer").is_some(),
        r.source.contains("in0_ptr")
    );
    assert_eq!(
        buffer_kind(&r.a, &r.b, "out0_ptr"),
        Some(DiffKind::Value),
        "the same way"
    );
}

/// A candidate that differs in another way (here: another buffer only) is
/// not kept, and a candidate the other side cannot run is logged with why.
#[test]
fn candidates_must_differ_the_same_way() {
    struct OnlyFirst(usize);
    impl Oracle for OnlyFirst {
        fn disagreement(&mut self, source: &str, launch: &Json) -> Result<Disagreement, String> {
            self.0 += 1;
            let l = parse_launch(&launch.to_string())?;
            let k =
                ksem_interp::elaborate_source("t.py", source, &l, None).map_err(|e| e.render())?;
            let a = Backend::Interp.run(&k, &l, &RunOptions::default())?;
            let mut b = a.clone();
            // the original disagrees on out0; every candidate only on out1
            let buf = if self.0 == 1 { "out0_ptr" } else { "out1_ptr" };
            match b.buffers.iter_mut().find(|x| x.name == buf) {
                Some(x) => x.bits[0] ^= 1,
                None => return Err("other side: no such buffer".into()),
            }
            disagree(a, b)
        }
    }
    let (src, launch) = program_1508();
    let r = reduce_with(&src, &launch, &mut OnlyFirst(0), Budget::default()).expect("disagrees");
    assert_eq!(r.steps, 0, "{}", r.source);
    assert!(r.tried > 10);
    assert!(r.log.iter().any(|l| l["verdict"]
        .as_str()
        .unwrap()
        .starts_with("differs otherwise")));
}
