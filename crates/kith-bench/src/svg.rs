//! Small SVG charts for reports: grouped bars (linear or log scale), lines, and
//! stacked bars. Self-contained text, no fonts or external files, so a report is one
//! HTML file that opens anywhere.

use std::fmt::Write;

/// Colours for series, in order (colour-blind-safe palette of Okabe and Ito).
const PALETTE: [&str; 8] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000",
];

fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A chart's frame: size, margins, title and axis label.
pub(crate) struct Frame<'a> {
    pub(crate) title: &'a str,
    pub(crate) y_label: &'a str,
    pub(crate) width: f64,
    pub(crate) height: f64,
}

const LEFT: f64 = 110.0;
const RIGHT: f64 = 20.0;
/// Title, then the legend row, then the plot.
const TOP: f64 = 56.0;
const BOTTOM: f64 = 120.0;

fn nice_max(v: f64) -> f64 {
    if v <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if v <= m * p {
            return m * p;
        }
    }
    10.0 * p
}

fn format_tick(v: f64) -> String {
    if v >= 1000.0 {
        format!("{}k", v / 1000.0)
    } else if v >= 1.0 || v == 0.0 {
        format!("{v}")
    } else {
        // Enough decimals for a log axis' small powers of ten (0.001 is not "0.00").
        let decimals = ((-v.log10()).ceil() as usize).max(2);
        format!("{v:.decimals$}")
    }
}

struct Scale {
    log: bool,
    min: f64,
    max: f64,
    plot_top: f64,
    plot_bottom: f64,
}

impl Scale {
    fn y(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.max(self.min).ln() - self.min.ln()) / (self.max.ln() - self.min.ln())
        } else {
            v / self.max
        };
        self.plot_bottom - t.clamp(0.0, 1.0) * (self.plot_bottom - self.plot_top)
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let mut t = Vec::new();
            let mut v = self.min;
            while v <= self.max * 1.0001 {
                t.push(v);
                v *= 10.0;
            }
            t
        } else {
            (0..=5).map(|i| self.max * f64::from(i) / 5.0).collect()
        }
    }
}

fn start(frame: &Frame<'_>) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#,
        w = frame.width,
        h = frame.height
    );
    let _ = write!(
        s,
        r#"<rect width="100%" height="100%" fill="white"/><text x="{}" y="22" font-size="14" font-weight="bold">{}</text>"#,
        LEFT,
        escape(frame.title)
    );
    let _ = write!(
        s,
        r#"<text transform="translate(60,{}) rotate(-90)" text-anchor="middle">{}</text>"#,
        (TOP + frame.height - BOTTOM) / 2.0,
        escape(frame.y_label)
    );
    s
}

fn axes(s: &mut String, frame: &Frame<'_>, scale: &Scale) {
    for t in scale.ticks() {
        let y = scale.y(t);
        let _ = write!(
            s,
            r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
            frame.width - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            format_tick(t)
        );
    }
    let _ = write!(
        s,
        r#"<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{}" stroke="black"/>"#,
        frame.height - BOTTOM
    );
}

fn legend(s: &mut String, frame: &Frame<'_>, series: &[String]) {
    let _ = frame;
    let mut x = LEFT;
    let y = 42.0;
    for (i, name) in series.iter().enumerate() {
        let _ = write!(
            s,
            r#"<rect x="{x:.1}" y="{}" width="10" height="10" fill="{}"/><text x="{:.1}" y="{}">{}</text>"#,
            y - 9.0,
            colour(i),
            x + 14.0,
            y,
            escape(name)
        );
        x += 24.0 + 6.5 * name.len() as f64;
    }
}

/// Grouped bars: one group per category, one bar per series. `values[s][c]` is
/// series `s` in category `c`; `None` leaves a gap.
pub(crate) fn bars(
    frame: &Frame<'_>,
    categories: &[String],
    series: &[String],
    values: &[Vec<Option<f64>>],
    log: bool,
) -> String {
    let all: Vec<f64> = values.iter().flatten().flatten().copied().collect();
    let max = all.iter().copied().fold(0.0, f64::max);
    let min_positive = all
        .iter()
        .copied()
        .filter(|v| *v > 0.0)
        .fold(f64::MAX, f64::min);
    let scale = Scale {
        log,
        min: if log {
            10f64.powf(min_positive.max(1e-9).log10().floor())
        } else {
            0.0
        },
        max: if log {
            10f64.powf(max.max(1e-9).log10().ceil())
        } else {
            nice_max(max)
        },
        plot_top: TOP,
        plot_bottom: frame.height - BOTTOM,
    };
    let mut s = start(frame);
    axes(&mut s, frame, &scale);
    let plot_width = frame.width - LEFT - RIGHT;
    let group = plot_width / categories.len().max(1) as f64;
    let bar = (group * 0.8) / series.len().max(1) as f64;
    for (c, name) in categories.iter().enumerate() {
        let x0 = LEFT + group * c as f64 + group * 0.1;
        for (k, row) in values.iter().enumerate() {
            if let Some(Some(v)) = row.get(c) {
                let y = scale.y(*v);
                let _ = write!(
                    s,
                    r#"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {}: {v:.1}</title></rect>"#,
                    x0 + bar * k as f64,
                    bar.max(1.0),
                    (scale.plot_bottom - y).max(0.0),
                    colour(k),
                    escape(&series[k]),
                    escape(name)
                );
            }
        }
        let _ = write!(
            s,
            r#"<text transform="translate({:.1},{}) rotate(-45)" text-anchor="end">{}</text>"#,
            x0 + group * 0.4,
            frame.height - BOTTOM + 14.0,
            escape(name)
        );
    }
    legend(&mut s, frame, series);
    s.push_str("</svg>");
    s
}

/// The room an x-axis label of a line plot takes, px.
const LABEL_WIDTH: f64 = 40.0;

/// Lines over numeric x values (drawn at equal spacing, labelled with the values;
/// with many, every few).
pub(crate) fn lines(
    frame: &Frame<'_>,
    xs: &[f64],
    x_label: &str,
    series: &[String],
    values: &[Vec<Option<f64>>],
) -> String {
    let max = values
        .iter()
        .flatten()
        .flatten()
        .copied()
        .fold(0.0, f64::max);
    let scale = Scale {
        log: false,
        min: 0.0,
        max: nice_max(max),
        plot_top: TOP,
        plot_bottom: frame.height - BOTTOM,
    };
    let mut s = start(frame);
    axes(&mut s, frame, &scale);
    let plot_width = frame.width - LEFT - RIGHT;
    let step = plot_width / (xs.len().max(2) - 1) as f64;
    let x_at = |i: usize| LEFT + step * i as f64;
    // A label every `every` points, so labels about 40 px wide do not overlap.
    let every = (LABEL_WIDTH / step).ceil().max(1.0) as usize;
    for (i, x) in xs.iter().enumerate().step_by(every) {
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
            x_at(i),
            frame.height - BOTTOM + 16.0,
            format_tick(*x)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
        LEFT + plot_width / 2.0,
        frame.height - BOTTOM + 34.0,
        escape(x_label)
    );
    for (k, row) in values.iter().enumerate() {
        let points: Vec<String> = row
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| format!("{:.1},{:.1}", x_at(i), scale.y(v))))
            .collect();
        let _ = write!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>"#,
            points.join(" "),
            colour(k)
        );
        for (i, v) in row.iter().enumerate() {
            if let Some(v) = v {
                let _ = write!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{}"><title>{}: {}: {v:.0}</title></circle>"#,
                    x_at(i),
                    scale.y(*v),
                    colour(k),
                    escape(&series[k]),
                    format_tick(xs[i])
                );
            }
        }
    }
    legend(&mut s, frame, series);
    s.push_str("</svg>");
    s
}

/// Stacked bars: one bar per category, one segment per part (`values[p][c]`).
pub(crate) fn stacked(
    frame: &Frame<'_>,
    categories: &[String],
    parts: &[String],
    values: &[Vec<f64>],
) -> String {
    let totals: Vec<f64> = (0..categories.len())
        .map(|c| {
            values
                .iter()
                .map(|p| p.get(c).copied().unwrap_or(0.0))
                .sum()
        })
        .collect();
    let scale = Scale {
        log: false,
        min: 0.0,
        max: nice_max(totals.iter().copied().fold(0.0, f64::max)),
        plot_top: TOP,
        plot_bottom: frame.height - BOTTOM,
    };
    let mut s = start(frame);
    axes(&mut s, frame, &scale);
    let plot_width = frame.width - LEFT - RIGHT;
    let group = plot_width / categories.len().max(1) as f64;
    for (c, name) in categories.iter().enumerate() {
        let x = LEFT + group * c as f64 + group * 0.15;
        let mut below = 0.0;
        for (p, row) in values.iter().enumerate() {
            let v = row.get(c).copied().unwrap_or(0.0);
            let (y_top, y_bottom) = (scale.y(below + v), scale.y(below));
            let _ = write!(
                s,
                r#"<rect x="{x:.1}" y="{y_top:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {}: {v:.1}</title></rect>"#,
                group * 0.7,
                (y_bottom - y_top).max(0.0),
                colour(p),
                escape(name),
                escape(&parts[p])
            );
            below += v;
        }
        let _ = write!(
            s,
            r#"<text transform="translate({:.1},{}) rotate(-45)" text-anchor="end">{}</text>"#,
            x + group * 0.35,
            frame.height - BOTTOM + 14.0,
            escape(name)
        );
    }
    legend(&mut s, frame, parts);
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_plot_labels_every_few_points_only() {
        let frame = Frame {
            title: "t",
            y_label: "ms",
            width: 1100.0,
            height: 440.0,
        };
        let xs: Vec<f64> = (1..=60).map(f64::from).collect();
        let values = vec![xs.iter().map(|x| Some(*x)).collect()];
        let svg = lines(&frame, &xs, "minutes", &["p50".into()], &values);
        let labels = svg.matches(r#"text-anchor="middle">"#).count() - 1; // the axis name
        assert!((10..=30).contains(&labels), "{labels} x labels");
    }

    #[test]
    fn ticks_keep_small_powers_of_ten_readable() {
        assert_eq!(format_tick(0.001), "0.001");
        assert_eq!(format_tick(0.01), "0.01");
        assert_eq!(format_tick(0.5), "0.50");
        assert_eq!(format_tick(20.0), "20");
        assert_eq!(format_tick(2500.0), "2.5k");
    }

    fn frame() -> Frame<'static> {
        Frame {
            title: "t <&>",
            y_label: "µs",
            width: 600.0,
            height: 400.0,
        }
    }

    #[test]
    fn charts_are_well_formed_and_escape_text() {
        let cats = vec!["a".to_string(), "b".to_string()];
        let series = vec!["s1".to_string(), "s2".to_string()];
        let values = vec![vec![Some(10.0), Some(1000.0)], vec![None, Some(50.0)]];
        for svg in [
            bars(&frame(), &cats, &series, &values, true),
            bars(&frame(), &cats, &series, &values, false),
            lines(&frame(), &[4.0, 16.0], "threads", &series, &values),
            stacked(&frame(), &cats, &series, &[vec![1.0, 2.0], vec![3.0, 4.0]]),
        ] {
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
            assert!(svg.contains("t &lt;&amp;&gt;"));
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
            assert_eq!(svg.matches("<svg").count(), 1);
        }
    }

    #[test]
    fn log_scale_places_decades_evenly() {
        let scale = Scale {
            log: true,
            min: 10.0,
            max: 1000.0,
            plot_top: 0.0,
            plot_bottom: 100.0,
        };
        assert_eq!(scale.y(10.0), 100.0);
        assert!((scale.y(100.0) - 50.0).abs() < 1e-9);
        assert_eq!(scale.y(1000.0), 0.0);
        assert_eq!(scale.ticks(), vec![10.0, 100.0, 1000.0]);
    }
}
