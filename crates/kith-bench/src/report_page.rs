//! What every report page shares: the page's head and what a report wrote. Apart from
//! `report`, which picks the report a run directory gets, so the reports it picks from
//! import nothing of it.

/// What the report was made of.
pub struct Written {
    /// The HTML file.
    pub html: std::path::PathBuf,
    /// The charts written beside it.
    pub charts: Vec<std::path::PathBuf>,
}

/// A report page's head, up to the opened body: one style for every report.
pub(crate) fn html_start(title: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title>\
         <style>body{{font-family:sans-serif;max-width:1150px;margin:2em auto;color:#222}}\
         table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}\
         th{{background:#f4f4f4}}td:first-child,th:first-child{{text-align:left}}figure{{margin:2em 0}}</style></head><body>"
    )
}
