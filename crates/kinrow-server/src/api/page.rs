//! The demo page: `GET /` and its two assets, built into the binary so that the page
//! works with no internet access and no files next to the binary. The page itself
//! (`static/`) is plain HTML, CSS and JavaScript that talks to `/v1/*` only.

use actix_web::http::header;
use actix_web::{web, HttpResponse};

const INDEX_HTML: &str = include_str!("../../static/index.html");

/// The page's scripts (JavaScript modules) and its style sheet, by their path under `/static/`.
const ASSETS: [(&str, &str, &str); 13] = [
    ("app.js", JS, include_str!("../../static/app.js")),
    ("analysis.js", JS, include_str!("../../static/analysis.js")),
    ("api.js", JS, include_str!("../../static/api.js")),
    ("board.js", JS, include_str!("../../static/board.js")),
    ("notation.js", JS, include_str!("../../static/notation.js")),
    ("opening.js", JS, include_str!("../../static/opening.js")),
    ("messages.js", JS, include_str!("../../static/messages.js")),
    ("panels.js", JS, include_str!("../../static/panels.js")),
    ("pieces.js", JS, include_str!("../../static/pieces.js")),
    ("review.js", JS, include_str!("../../static/review.js")),
    ("settings.js", JS, include_str!("../../static/settings.js")),
    ("share.js", JS, include_str!("../../static/share.js")),
    ("style.css", CSS, include_str!("../../static/style.css")),
];
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The page's own security policy: everything from this server, nothing from elsewhere.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                   script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(body)
}

async fn index() -> HttpResponse {
    let mut res = asset("text/html; charset=utf-8", INDEX_HTML);
    res.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(CSP),
    );
    res
}

/// Registers `GET /` and `GET /static/<asset>` for each of [`ASSETS`].
pub fn configure(cfg: &mut web::ServiceConfig) {
    // One resource per path, so that another method answers 405 with `Allow`.
    cfg.service(web::resource("/").route(web::get().to(index)));
    for (name, content_type, body) in ASSETS {
        cfg.service(
            web::resource(format!("/static/{name}"))
                .route(web::get().to(move || async move { asset(content_type, body) })),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::{body::to_bytes, test, App};

    #[actix_web::test]
    async fn serves_the_page_and_its_assets() {
        let app = test::init_service(App::new().configure(configure)).await;
        let mut pages = vec![(
            "/".to_string(),
            "text/html",
            "<script type=\"module\" src=\"/static/app.js\">",
        )];
        for (name, _, _) in ASSETS {
            let kind = if name.ends_with(".js") {
                "text/javascript"
            } else {
                "text/css"
            };
            pages.push((format!("/static/{name}"), kind, ""));
        }
        pages[1].2 = "/v1/play";
        for (path, kind, needle) in pages {
            let path = path.as_str();
            let res =
                test::call_service(&app, test::TestRequest::get().uri(path).to_request()).await;
            assert!(res.status().is_success(), "{path}: {}", res.status());
            let ct = res
                .headers()
                .get(header::CONTENT_TYPE)
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned();
            assert!(ct.starts_with(kind), "{path}: content type {ct}");
            let body = to_bytes(res.into_body()).await.unwrap();
            let text = std::str::from_utf8(&body).unwrap();
            assert!(text.contains(needle), "{path} lacks {needle:?}");
        }
    }

    #[actix_web::test]
    async fn the_page_loads_nothing_from_elsewhere() {
        for text in std::iter::once(INDEX_HTML).chain(ASSETS.iter().map(|a| a.2)) {
            assert!(!text.contains("http://") && !text.contains("https://"));
        }
    }
}
