//! The HTML page of a mail that shows pictures of the board in its body (issue 27, point
//! 5): the pictures, then the text, everything from the mail escaped.

/// The HTML page of a mail with pictures (their `cid` and alt text): the pictures in
/// order, then the text. Everything from the mail is escaped: a player's press or name never
/// becomes markup.
pub(super) fn page(pictures: &[(&str, &str)], text: &str) -> String {
    let mut images = String::new();
    for (cid, alt) in pictures {
        images.push_str(&format!(
            "<p><img src=\"cid:{}\" alt=\"{}\" style=\"max-width:100%;height:auto\"></p>\n",
            escape(cid),
            escape(alt)
        ));
    }
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n\
         {images}<pre style=\"white-space:pre-wrap\">{}</pre>\n</body></html>",
        escape(text)
    )
}

pub(super) use crate::markup::escape;
