//! The report page built from a real (small) campaign: two shards of a
//! campaign of interp against the host build with a planted lowering bug
//! (signed `//` flooring), plus a hand-made worker directory whose program
//! text and name carry markup. Checked structurally, and in headless
//! Chromium where one is installed.

use super::charts;
use crate::backend::Backend;
use crate::fuzz::run::{campaign, Options};
use ksem_gpu::planted::{self, Bug};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// What markup in the hand-made finding's source and directory name tries.
const HOSTILE_SOURCE: &str = "# </pre><script>alert('x')</script> & <b>bold</b>\n";
const HOSTILE_DIR: &str = "w<i>3<\\i>&amp\"q";

/// The campaign's directories and the page built from them.
struct Fixture {
    dirs: Vec<PathBuf>,
    page: PathBuf,
    html: String,
}

/// Runs the campaign once per test process (a planted bug is process-wide).
fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let _host = crate::fuzz::HOST_BUILD_LOCK
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let base = std::env::temp_dir().join(format!("ksem-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let opts = |i: u64| Options {
            seed: 11,
            count: Some(160),
            backends: (Backend::Interp, Backend::Host),
            jobs: 1,
            out: Some(base.join(format!("w{i}"))),
            shard: (i, 2),
            ..Default::default()
        };
        planted::set(Some(Bug::FloorDiv));
        let mut dirs: Vec<PathBuf> = (0..2)
            .map(|i| {
                let o = opts(i);
                campaign(&o, |_| {});
                o.out.expect("out")
            })
            .collect();
        // a worker whose directory name and program text carry markup
        let hostile = base.join(HOSTILE_DIR);
        std::fs::create_dir_all(&hostile).expect("mkdir");
        let (name, _) = first_finding(&dirs[0]);
        for ext in [".py", ".json", ".results.json"] {
            std::fs::copy(
                dirs[0].join(format!("{name}{ext}")),
                hostile.join(format!("{name}{ext}")),
            )
            .expect("copy");
        }
        let py = hostile.join(format!("{name}.py"));
        let src = std::fs::read_to_string(&py).expect("read");
        std::fs::write(&py, format!("{HOSTILE_SOURCE}{src}")).expect("write");
        // its own time series: 10 programs/s, then 20
        std::fs::write(
            hostile.join("progress.jsonl"),
            "{\"t\":0,\"programs\":0,\"mismatches\":0}\n{\"t\":1,\"programs\":10,\"mismatches\":1}\n{\"t\":2,\"programs\":30,\"mismatches\":1}\n",
        )
        .expect("write");
        dirs.push(hostile);
        let page = base.join("report.html");
        let written = super::write(&dirs, &page, false);
        planted::set(None);
        written.expect("report written");
        let html = std::fs::read_to_string(&page).expect("page");
        Fixture { dirs, page, html }
    })
}

/// The first finding of a directory (name), by its `.results.json`.
fn first_finding(dir: &Path) -> (String, usize) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| {
            let n = e.ok()?.file_name().to_string_lossy().to_string();
            n.strip_suffix(".results.json").map(str::to_string)
        })
        .collect();
    names.sort();
    let n = names.len();
    (names.into_iter().next().expect("a finding"), n)
}

/// The findings' names of a directory, from its files.
fn finding_names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| {
            let n = e.ok()?.file_name().to_string_lossy().to_string();
            n.strip_suffix(".results.json").map(str::to_string)
        })
        .collect()
}

fn summary(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("summary parses")
}

/// The HTML escaping of text (the five characters HTML gives meaning to).
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[test]
fn fuzz_out_writes_summary_and_progress() {
    let f = fixture();
    for d in &f.dirs[..2] {
        let s = summary(d);
        assert_eq!(
            s["programs"],
            80,
            "{}: each shard checks half of 160",
            d.display()
        );
        let p = super::parse_progress(
            &std::fs::read_to_string(d.join("progress.jsonl")).expect("progress.jsonl"),
        )
        .expect("parses");
        assert_eq!(p.first().map(|x| (x.programs, x.mismatches)), Some((0, 0)));
        let last = p.last().expect("a line");
        assert_eq!(last.programs, 80);
        assert_eq!(Some(last.mismatches), s["mismatches"].as_u64());
        assert!(p.windows(2).all(|w| w[0].programs <= w[1].programs));
    }
}

#[test]
fn the_page_shows_every_finding_bucket_and_feature() {
    let f = fixture();
    let html = &f.html;
    assert!(html.starts_with("<!DOCTYPE html>"));
    let mut total = 0;
    for (ci, d) in f.dirs.iter().enumerate() {
        let names = finding_names(d);
        assert!(
            !names.is_empty(),
            "{}: the planted bug was not found",
            d.display()
        );
        total += names.len();
        for n in &names {
            let id = format!("id=\"finding-{ci}-{n}\"");
            assert!(html.contains(&id), "no section {id}");
            // the source, escaped
            let src = std::fs::read_to_string(d.join(format!("{n}.py"))).expect("py");
            assert!(
                html.contains(&escaped(&src)),
                "{n}: source not shown verbatim"
            );
            // every differing element highlighted: as many highlighted rows
            // in its section as elements whose bits differ in the results
            let saved = crate::triage::read_finding(d, n).expect("finding reads");
            let differing: usize = saved
                .a
                .buffers
                .iter()
                .map(|a| {
                    let b = saved
                        .b
                        .buffers
                        .iter()
                        .find(|b| b.name == a.name)
                        .expect("buffer");
                    a.bits.iter().zip(&b.bits).filter(|(x, y)| x != y).count()
                })
                .sum();
            assert!(differing > 0);
            let start = html.find(&id).expect("section");
            let end = html[start..].find("</section>").expect("end") + start;
            let rows = html[start..end].matches("<tr class=\"differs\">").count();
            assert_eq!(rows, differing.min(256), "{n}: highlighted rows");
        }
        // the worker's own buckets and features
        if let Ok(s) = std::fs::read_to_string(d.join("summary.json")) {
            let s: serde_json::Value = serde_json::from_str(&s).expect("json");
            let buckets = s["by_bucket"].as_object().expect("by_bucket");
            assert!(!buckets.is_empty());
            for b in buckets.keys() {
                assert!(
                    html.contains(&format!("<td class=\"name\">{}</td>", escaped(b))),
                    "bucket {b}"
                );
            }
            for feat in s["by_feature"].as_object().expect("by_feature").keys() {
                assert!(html.contains(&escaped(feat)), "feature {feat}");
            }
        }
    }
    assert_eq!(html.matches("<section class=\"finding\"").count(), total);
    // the planted lowering bug is blamed on ksem's lowering (the host build
    // reruns and disagrees again)
    assert!(html.contains("ksem lowering or interpreter"));
    for id in ["chart-rates", "chart-buckets", "chart-features"] {
        let start = html
            .find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("no {id}"));
        assert!(html[start..].contains("<svg"), "{id} holds no SVG");
    }
    // one line per worker, in its color
    let rates = &html[html.find("id=\"chart-rates\"").expect("rates")..];
    let rates = &rates[..rates.find("</svg>").expect("svg end")];
    for i in 0..f.dirs.len() {
        let c = charts::worker_color(i);
        let hex = format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        assert!(rates.to_uppercase().contains(&hex), "no line in {hex}");
    }
}

#[test]
fn markup_in_program_text_and_names_is_escaped() {
    let f = fixture();
    assert!(!f.html.contains("<script"), "a script element got in");
    assert!(!f.html.contains("<b>bold"));
    assert!(!f.html.contains("<i>3"));
    assert!(f.html.contains(&escaped(HOSTILE_SOURCE)));
    assert!(f.html.contains(&escaped(HOSTILE_DIR)));
}

/// Chromium from the system's packages (`apt-get install chromium`), or `$KSEM_CHROMIUM`.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("KSEM_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|n| dirs.iter().map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

/// Runs headless Chromium on `page` with `args`; its stdout.
fn run_chromium(bin: &Path, page: &Path, args: &[String]) -> String {
    let profile = tempdir("chromium-profile");
    let out = std::process::Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn tempdir(what: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("ksem-{what}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&d).expect("tempdir");
    d
}

/// The page in a real browser: the DOM after load holds the three charts
/// and every finding, and the screenshot shows the charts' colors (bars of
/// the bucket and feature charts, a line per worker): they were drawn.
#[test]
fn the_page_renders_in_headless_chromium() {
    let Some(bin) = chromium() else {
        eprintln!("SKIPPED: no chromium (apt-get install -y chromium, or set KSEM_CHROMIUM)");
        return;
    };
    let f = fixture();
    let dom = run_chromium(&bin, &f.page, &["--dump-dom".into()]);
    for id in ["chart-rates", "chart-buckets", "chart-features"] {
        let start = dom
            .find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("no {id} in the DOM"));
        assert!(dom[start..]
            .trim_start_matches(|c| c != '<')
            .contains("<svg"));
    }
    assert_eq!(
        dom.matches("<section class=\"finding\"").count(),
        f.html.matches("<section class=\"finding\"").count()
    );
    assert!(!dom.contains("<script"));
    let shot = tempdir("screenshot").join("report.png");
    run_chromium(
        &bin,
        &f.page,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,2000".into(),
        ],
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&shot).expect("screenshot written"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("frame");
    assert_eq!((info.width, info.height), (1280, 2000));
    let channels = info.color_type.samples();
    let pixels = |c: plotters::style::RGBColor| {
        buf[..info.buffer_size()]
            .chunks(channels)
            .filter(|p| (p[0], p[1], p[2]) == (c.0, c.1, c.2))
            .count()
    };
    let (bucket, feature, worker) = (
        pixels(charts::BUCKET_COLOR),
        pixels(charts::FEATURE_COLOR),
        pixels(charts::worker_color(0)),
    );
    eprintln!(
        "screenshot {}: {bucket} bucket-bar pixels, {feature} feature-bar pixels, {worker} pixels of worker 0's line",
        shot.display()
    );
    assert!(bucket > 2000, "bucket bars not drawn ({bucket} pixels)");
    assert!(feature > 2000, "feature bars not drawn ({feature} pixels)");
    assert!(worker > 50, "worker 0's line not drawn ({worker} pixels)");
    for i in 1..f.dirs.len() {
        let n = pixels(charts::worker_color(i));
        assert!(n > 50, "worker {i}'s line not drawn ({n} pixels)");
    }
}

/// Rates are the programs between two progress lines over the seconds
/// between them: 0→30 programs in 2 s is 15/s, 30→40 in 0.5 s is 20/s;
/// lines are taken in time order, blank lines skipped.
#[test]
fn rates_between_progress_lines() {
    let text = "{\"t\":2.0,\"programs\":30,\"mismatches\":1}\n\n{\"t\":0,\"programs\":0,\"mismatches\":0}\n{\"t\":2.5,\"programs\":40,\"mismatches\":1}\n";
    let c = super::Campaign {
        dir: "d".into(),
        summary: None,
        progress: super::parse_progress(text).expect("parses"),
        findings: Vec::new(),
        errors: Vec::new(),
    };
    let r: Vec<(f64, f64, f64)> = c.rates().iter().map(|s| (s.from, s.to, s.rate)).collect();
    assert_eq!(r, vec![(0.0, 2.0, 15.0), (2.0, 2.5, 20.0)]);
    assert!(super::parse_progress("{\"t\":1}").is_err());
}
