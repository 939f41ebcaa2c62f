//! The administrators' page (issue 63): the director role granted and
//! removed on the web. Removing asks first.

use crate::accounts::admins;
use crate::domain::error::Error;
use crate::web::{html, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "admin_directors.html")]
struct DirectorsPage {
    page: Page,
    directors: Vec<String>,
}

#[derive(Template)]
#[template(path = "admin_remove_director.html")]
struct RemovePage {
    page: Page,
    name: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RoleForm {
    csrf_token: String,
    /// The username.
    name: String,
    /// `1`: the removal was confirmed.
    confirm: String,
}

/// `GET /admin/directors`: the directors, and the forms to grant and remove
/// the role.
pub async fn directors(ctx: Ctx) -> Result<HttpResponse, Error> {
    let user = ctx.require_user()?.clone();
    let directors = ctx
        .state
        .read(move |conn| {
            admins::require_admin(conn, Some(&user))?;
            Ok(crate::db::users::director_names(conn)?)
        })
        .await?;
    let page = DirectorsPage {
        page: ctx.page(),
        directors,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// `POST /admin/directors/grant` (`name`).
pub async fn grant(ctx: Ctx, form: web::Form<RoleForm>) -> Result<HttpResponse, Error> {
    set_role(ctx, form.into_inner(), true).await
}

/// `POST /admin/directors/remove` (`name`, `confirm=1`); without `confirm`
/// the answer is a page that asks.
pub async fn remove(ctx: Ctx, form: web::Form<RoleForm>) -> Result<HttpResponse, Error> {
    let f = form.into_inner();
    if f.confirm.trim() != "1" {
        ctx.check_csrf(&f.csrf_token)?;
        let user = ctx.require_user()?.clone();
        let name = f.name.trim().to_string();
        let known = ctx
            .state
            .read(move |conn| {
                admins::require_admin(conn, Some(&user))?;
                Ok(crate::db::users::director_names(conn)?
                    .into_iter()
                    .find(|d| d.eq_ignore_ascii_case(&name)))
            })
            .await?;
        let Some(name) = known else {
            return Err(Error::Invalid(format!(
                "“{}” is not a director.",
                crate::web::clip(f.name.trim(), 40)
            )));
        };
        let page = RemovePage {
            page: ctx.page(),
            name,
        };
        return Ok(html(StatusCode::OK, page.render()?));
    }
    set_role(ctx, f, false).await
}

async fn set_role(ctx: Ctx, f: RoleForm, on: bool) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&f.csrf_token)?;
    let admin = ctx.require_user()?.clone();
    let name = f.name;
    ctx.state
        .write(move |conn| admins::set_director_role(conn, &admin, &name, on).map(|_| ()))
        .await?;
    Ok(see_other("/admin/directors"))
}
