//! The report page's HTML. Built with `maud`: every interpolated string
//! (paths, bucket names, program text, bits) is escaped; only the SVG that
//! `plotters` drew (which escapes its own labels) goes in verbatim.

use super::charts;
use super::{Campaign, FindingView};
use ksem_interp::launch::{hex_bits, BufferResult};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// Elements of a buffer shown in full; past this only differing ones are.
const SHOW_ALL_UP_TO: usize = 64;
/// Differing elements shown per buffer at most.
const SHOW_DIFFERING: usize = 256;

const CSS: &str = "
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1180px; }
h1 { margin-bottom: 4px; }
table { border-collapse: collapse; margin: 8px 0 16px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; font-size: 13px; }
th { background: #f0f0f0; }
td.name, th.name { text-align: left; }
pre.source { background: #f7f7f7; border: 1px solid #ddd; padding: 8px; overflow-x: auto; font-size: 12px; }
tr.differs td { background: #fde2e0; font-weight: bold; }
code.bits { font-family: monospace; }
.chart { margin: 12px 0 24px; }
.finding { border-top: 2px solid #888; margin-top: 24px; padding-top: 8px; }
.errors { color: #a00; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; font-size: 14px; }
dl.meta dt { font-weight: bold; }
dl.meta dd { margin: 0; }
";

/// The whole page.
pub fn render(campaigns: &[Campaign]) -> String {
    let findings: usize = campaigns.iter().map(|c| c.findings.len()).sum();
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { "ksem campaign report" }
                style { (PreEscaped(CSS)) }
            }
            body {
                h1 { "ksem campaign report" }
                p { (campaigns.len()) " campaign directories, " (findings) " findings." }
                (overview(campaigns))
                (charts_section(campaigns))
                h2 id="findings" { "Findings" }
                @for (ci, c) in campaigns.iter().enumerate() {
                    @for f in &c.findings {
                        (finding(ci, c, f))
                    }
                }
                @if findings == 0 { p { "No findings." } }
            }
        }
    };
    page.into_string()
}

/// A number of a summary, or a dash.
fn field(s: Option<&Json>, k: &str) -> String {
    match s.and_then(|s| s.get(k)) {
        Some(Json::String(t)) => t.clone(),
        Some(v) if !v.is_null() => v.to_string(),
        _ => "–".into(),
    }
}

fn overview(campaigns: &[Campaign]) -> Markup {
    let cols = [
        "dialect",
        "backends",
        "seed",
        "shard",
        "programs",
        "checks",
        "seconds",
        "programs_per_s",
        "checks_per_s",
        "mismatches",
        "ub_skipped",
        "errors",
    ];
    html! {
        h2 { "Workers" }
        table.workers {
            tr {
                th.name { "directory" }
                @for k in cols { th { (k) } }
                th { "findings" }
            }
            @for c in campaigns {
                tr {
                    td.name { (c.dir) }
                    @for k in cols { td { (field(c.summary.as_ref(), k)) } }
                    td { (c.findings.len()) }
                }
            }
        }
        @for c in campaigns {
            @if c.summary.is_none() {
                p { (c.dir) ": no summary.json (a merged directory, or a worker still running): its findings are shown, its counts are not." }
            }
            @if !c.errors.is_empty() {
                div.errors {
                    p { (c.dir) ": could not read:" }
                    ul { @for e in &c.errors { li { (e) } } }
                }
            }
        }
    }
}

/// A chart, or why it could not be drawn.
fn chart(id: &str, svg: Result<String, String>) -> Markup {
    match svg {
        Ok(svg) => html! { div.chart id=(id) { (PreEscaped(svg)) } },
        Err(e) => html! { p.errors { (e) } },
    }
}

fn charts_section(campaigns: &[Campaign]) -> Markup {
    let series: Vec<(String, Vec<super::Step>)> = campaigns
        .iter()
        .map(|c| (c.dir.clone(), c.rates()))
        .filter(|s| !s.1.is_empty())
        .collect();
    let mut buckets = BTreeMap::<String, u64>::new();
    let mut features = BTreeMap::<String, (u64, u64)>::new();
    for c in campaigns {
        for (b, n) in c.bucket_counts() {
            *buckets.entry(b).or_default() += n;
        }
        for (f, n, m) in c.feature_counts() {
            let e = features.entry(f).or_default();
            e.0 += n;
            e.1 += m;
        }
    }
    let mut bucket_rows: Vec<(String, u64, u64)> =
        buckets.into_iter().map(|(b, n)| (b, n, 0)).collect();
    bucket_rows.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    let mut feature_rows: Vec<(String, u64, u64)> =
        features.into_iter().map(|(f, (n, m))| (f, n, m)).collect();
    feature_rows.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    html! {
        h2 { "Throughput" }
        @if series.is_empty() {
            p { "No progress.jsonl in any directory: no throughput to plot." }
        } @else {
            (chart("chart-rates", charts::rates(&series)))
        }
        h2 { "Mismatches per triage bucket" }
        @if bucket_rows.is_empty() {
            p { "No mismatches." }
        } @else {
            (chart("chart-buckets", charts::bars(
                "mismatches per triage bucket (all workers)",
                "mismatches",
                &bucket_rows,
                charts::BUCKET_COLOR,
                None,
            )))
            table.buckets {
                tr { th.name { "bucket" } th { "mismatches" } }
                @for (b, n, _) in &bucket_rows { tr { td.name { (b) } td { (n) } } }
            }
        }
        h2 { "Features exercised" }
        @if feature_rows.is_empty() {
            p { "No summary.json with by_feature counts." }
        } @else {
            (chart("chart-features", charts::bars(
                "programs per feature (all workers)",
                "programs",
                &feature_rows,
                charts::FEATURE_COLOR,
                Some(("programs with a mismatch", charts::FEATURE_MISMATCH_COLOR)),
            )))
        }
    }
}

fn finding(ci: usize, c: &Campaign, f: &FindingView) -> Markup {
    let t = &f.triage;
    html! {
        section.finding id=(format!("finding-{ci}-{}", t.name)) {
            h3 { (t.name) }
            dl.meta {
                dt { "directory" } dd { (c.dir) }
                dt { "bucket" } dd.bucket { (t.bucket.name()) }
                dt { "kind" } dd { (t.kind.name()) }
                dt { "signature" } dd { code { (t.signature) } }
                dt { "backends" } dd { (t.backends.0) " (reference) against " (t.backends.1) }
                @if let Some(p) = &f.provenance { dt { "provenance" } dd { (p) } }
                @if let Some(r) = &f.reproduce { dt { "reproduce" } dd { code { (r) } } }
            }
            pre.source { (f.source) }
            @let pairs: Vec<(&BufferResult, &BufferResult)> = f.a.buffers.iter()
                .filter_map(|a| f.b.buffers.iter().find(|b| b.name == a.name).map(|b| (a, b)))
                .collect();
            @for (ba, bb) in pairs.iter().filter(|(a, b)| a.bits != b.bits) {
                (buffer(&f.a.backend, ba, &f.b.backend, bb))
            }
            @let same: Vec<&str> = pairs.iter().filter(|(a, b)| a.bits == b.bits).map(|(a, _)| a.name.as_str()).collect();
            @if !same.is_empty() {
                p.same { "Equal on both sides: " (same.join(", ")) "." }
            }
        }
    }
}

/// One buffer's elements on both sides; differing rows highlighted.
fn buffer(an: &str, a: &BufferResult, bn: &str, b: &BufferResult) -> Markup {
    let n = a.bits.len().max(b.bits.len());
    let differs = |i: usize| a.bits.get(i) != b.bits.get(i);
    let n_diff = (0..n).filter(|&i| differs(i)).count();
    let rows: Vec<usize> = if n <= SHOW_ALL_UP_TO {
        (0..n).collect()
    } else {
        (0..n)
            .filter(|&i| differs(i))
            .take(SHOW_DIFFERING)
            .collect()
    };
    let cell = |r: &BufferResult, i: usize| match r.bits.get(i) {
        Some(&x) => (
            ksem_interp::eval::format_value(r.dtype, x),
            hex_bits(r.dtype, x),
        ),
        None => ("–".into(), "–".into()),
    };
    html! {
        h4 {
            "buffer " code { (a.name) } " (" (a.dtype.json_name()) ", " (n) " elements, "
            (n_diff) " differ"
            @if rows.len() < n { "; only differing elements shown" @if rows.len() < n_diff { ", the first " (rows.len()) } }
            ")"
        }
        table.elements {
            tr {
                th { "#" }
                th { (an) " value" } th { (an) " bits" }
                th { (bn) " value" } th { (bn) " bits" }
            }
            @for i in rows {
                @let (av, ab) = cell(a, i);
                @let (bv, bb) = cell(b, i);
                tr.differs[differs(i)] {
                    td { (i) }
                    td { (av) } td { code.bits { (ab) } }
                    td { (bv) } td { code.bits { (bb) } }
                }
            }
        }
    }
}
