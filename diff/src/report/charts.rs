//! The page's charts, drawn as SVG by `plotters` (its SVG backend escapes
//! every label): programs/s over time per worker, and horizontal bar charts
//! of counts per name.

use super::Step;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

/// Width of every chart, in pixels.
const WIDTH: u32 = 1100;
/// The bars of the bucket chart.
pub const BUCKET_COLOR: RGBColor = RGBColor(0xc0, 0x39, 0x2b);
/// The bars of programs per feature.
pub const FEATURE_COLOR: RGBColor = RGBColor(0x5d, 0x8a, 0xc8);
/// The overlaid bars of mismatching programs per feature.
pub const FEATURE_MISMATCH_COLOR: RGBColor = RGBColor(0xe6, 0x7e, 0x22);

/// The color of worker `i`'s line.
pub fn worker_color(i: usize) -> RGBColor {
    let c = Palette99::pick(i).to_rgba();
    RGBColor(c.0, c.1, c.2)
}

/// Programs per second over time, one line per worker (its label and
/// steps): drawn as steps, so that even a short worker's one interval is a line.
pub fn rates(series: &[(String, Vec<Step>)]) -> Result<String, String> {
    let t_max = max_of(series.iter().flat_map(|s| s.1.iter().map(|p| p.to)));
    let r_max = max_of(series.iter().flat_map(|s| s.1.iter().map(|p| p.rate)));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 380)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("programs/s over time, per worker", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..t_max * 1.02, 0.0..r_max * 1.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc("seconds since the worker started")
            .y_desc("programs/s")
            .draw()
            .map_err(err)?;
        for (i, (label, steps)) in series.iter().enumerate() {
            let color = worker_color(i);
            let points: Vec<(f64, f64)> = steps
                .iter()
                .flat_map(|s| [(s.from, s.rate), (s.to, s.rate)])
                .collect();
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))
                .map_err(err)?
                .label(label.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::LowerRight)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A horizontal bar chart of `rows` (name, value, and an overlaid second
/// value drawn in `over.1` when `over` is given, e.g. the mismatching part).
pub fn bars(
    title: &str,
    x_desc: &str,
    rows: &[(String, u64, u64)],
    color: RGBColor,
    over: Option<(&str, RGBColor)>,
) -> Result<String, String> {
    let n = rows.len().max(1);
    let v_max = rows.iter().map(|r| r.1.max(r.2)).max().unwrap_or(0).max(1);
    let longest = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(4);
    let label_w = (longest as u32 * 7 + 16).clamp(80, 460);
    let height = 110 + 26 * n.max(3) as u32;
    let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(label_w)
            .build_cartesian_2d(0u64..v_max + v_max / 10 + 1, (0..n).into_segmented())
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .y_labels(n)
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .x_desc(x_desc)
            .draw()
            .map_err(err)?;
        let bar = |i: usize, v: u64, c: RGBColor| {
            let mut r = Rectangle::new(
                [(0, SegmentValue::Exact(i)), (v, SegmentValue::Exact(i + 1))],
                c.filled(),
            );
            r.set_margin(3, 3, 0, 0);
            r
        };
        let drawn = chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| bar(i, r.1, color)))
            .map_err(err)?;
        if let Some((label, c2)) = over {
            drawn.label(x_desc).legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 14, y + 5)], color.filled())
            });
            chart
                .draw_series(rows.iter().enumerate().map(|(i, r)| bar(i, r.2, c2)))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], c2.filled()));
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .position(SeriesLabelPosition::LowerRight)
                .draw()
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The largest of `xs`, at least 1 (an empty or all-zero chart still has axes).
fn max_of(xs: impl Iterator<Item = f64>) -> f64 {
    xs.fold(1.0_f64, f64::max)
}

fn err(e: impl std::fmt::Display) -> String {
    format!("drawing a chart: {e}")
}
