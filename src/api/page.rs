//! The demo page: `GET /` and its two assets, built into the binary so that the page
//! works with no internet access and no files next to the binary. The page itself
//! (`static/`) is plain HTML, CSS and JavaScript that talks to `/v1/*` only.

use actix_web::http::header;
use actix_web::{web, HttpResponse};

const INDEX_HTML: &str = include_str!("../../static/index.html");
const APP_JS: &str = include_str!("../../static/app.js");
const STYLE_CSS: &str = include_str!("../../static/style.css");

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

async fn app_js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", APP_JS)
}

async fn style_css() -> HttpResponse {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

/// Registers `GET /`, `GET /static/app.js` and `GET /static/style.css`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    // One resource per path, so that another method answers 405 with `Allow`.
    cfg.service(web::resource("/").route(web::get().to(index)))
        .service(web::resource("/static/app.js").route(web::get().to(app_js)))
        .service(web::resource("/static/style.css").route(web::get().to(style_css)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::{body::to_bytes, test, App};

    #[actix_web::test]
    async fn serves_the_page_and_its_assets() {
        let app = test::init_service(App::new().configure(configure)).await;
        for (path, kind, needle) in [
            ("/", "text/html", "<script src=\"/static/app.js\">"),
            ("/static/app.js", "text/javascript", "/v1/suggest"),
            ("/static/style.css", "text/css", ".board"),
        ] {
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
        for text in [INDEX_HTML, APP_JS, STYLE_CSS] {
            assert!(!text.contains("http://") && !text.contains("https://"));
        }
    }
}
