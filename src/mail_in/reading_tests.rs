//! Replies as mail clients write them.

use super::*;

const TO: &str = "play+1-2-3-abc-0123456789abcdef01234567@missive.test";

fn mail(headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Alice <Alice@Example.org>\r\nTo: Missive <{TO}>\r\nSubject: Re: Your move\r\n\
         Message-ID: <reply-1@example.org>\r\nDate: Thu, 26 Nov 2026 17:00:00 +0000\r\n{headers}\r\n{body}"
    )
    .into_bytes()
}

fn plain(body: &str) -> Vec<u8> {
    mail(
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n",
        body,
    )
}

fn move_of(raw: &[u8]) -> Instruction {
    let reply = read_message(raw).expect("a message");
    instruction(&reply.text).expect("an instruction")
}

fn just(text: &str) -> Instruction {
    Instruction::Move {
        text: text.into(),
        line: None,
    }
}

#[test]
fn headers_give_the_id_the_sender_and_the_recipients_count() {
    let reply = read_message(&plain("e4\r\n")).unwrap();
    assert_eq!(reply.message_id.as_deref(), Some("reply-1@example.org"));
    assert_eq!(reply.sender.as_deref(), Some("alice@example.org"));
    assert_eq!(reply.header_recipients, 1);
    let raw = mail(
        "Cc: a@x.test, b@x.test\r\nDelivered-To: c@x.test\r\n",
        "e4\r\n",
    );
    assert_eq!(read_message(&raw).unwrap().header_recipients, 3);
}

#[test]
fn nested_multiparts_past_the_cap_are_not_read() {
    let nest = |levels: usize| {
        let mut headers = String::new();
        let mut body = String::new();
        for i in 0..levels {
            let ct = format!("Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n");
            if i == 0 {
                headers = format!("MIME-Version: 1.0\r\n{ct}");
            } else {
                body.push_str(&format!("--b{}\r\n{ct}\r\n", i - 1));
            }
        }
        body.push_str(&format!(
            "--b{}\r\nContent-Type: text/plain\r\n\r\ne4\r\n",
            levels - 1
        ));
        mail(&headers, &body)
    };
    assert!(read_message(&nest(3)).is_some());
    assert_eq!(read_message(&nest(MAX_MULTIPARTS + 1)), None);
    assert_eq!(read_message(&nest(100_000)), None);
}

#[test]
fn gmail_quotes_below_a_wrapped_on_wrote_line() {
    let body = "Nf3 // developing\r\n\r\nOn Thu, Nov 26, 2026 at 5:00\u{202f}PM Missive <\r\n\
                missive@missive.test> wrote:\r\n\r\n> bob played e5\r\n> Your move.\r\n";
    assert_eq!(move_of(&plain(body)), just("Nf3 // developing"));
    // Nothing of its own above the quote: no instruction.
    let quoted_only = "On Thu, Nov 26, 2026 at 5:00 PM Missive <m@x.test> wrote:\r\n> e4\r\n";
    assert_eq!(
        instruction(&read_message(&plain(quoted_only)).unwrap().text),
        None
    );
}

#[test]
fn outlook_puts_the_original_under_a_rule_and_a_from_block() {
    let body = "\r\nBb5\r\n\r\n________________________________\r\nFrom: Missive <missive@missive.test>\r\n\
                Sent: Thursday, November 26, 2026 5:00 PM\r\nTo: alice@example.org\r\n\
                Subject: Your move\r\n\r\nresign\r\n";
    assert_eq!(move_of(&plain(body)), just("Bb5"));
    let old = "O-O\r\n\r\n-----Original Message-----\r\nFrom: Missive\r\nresign\r\n";
    assert_eq!(move_of(&plain(old)), just("O-O"));
}

#[test]
fn apple_mail_quotes_its_header_too() {
    let body = "exd5\r\n\r\nSent from my iPhone\r\n\r\n> On 26 Nov 2026, at 17:00, Missive \
                <missive@missive.test> wrote:\r\n> \r\n> resign\r\n";
    assert_eq!(move_of(&plain(body)), just("exd5"));
    // The quote above the answer (top quoting undone): still the own line.
    let bottom = "> On 26 Nov 2026, at 17:00, Missive wrote:\r\n> Your move\r\n\r\nQxd5\r\n";
    assert_eq!(move_of(&plain(bottom)), just("Qxd5"));
}

#[test]
fn thunderbird_writes_on_date_name_wrote_and_a_signature() {
    let body = "On 26/11/2026 17:00, Missive wrote:\r\n> Your move against bob\r\n>\r\n\r\n\
                c5\r\n\r\n-- \r\nAlice, Lyon\r\nresign\r\n";
    // Interleaved: the reader answers under the quote.
    assert_eq!(move_of(&plain(body)), just("c5"));
    let signed = "accept draw\r\n-- \r\nresign\r\n";
    assert_eq!(move_of(&plain(signed)), Instruction::AcceptDraw);
}

#[test]
fn the_words_and_the_conditional_lines() {
    for (text, expected) in [
        ("Resign.", Instruction::Resign),
        ("offer  draw", Instruction::OfferDraw),
        ("Accept draw!", Instruction::AcceptDraw),
        ("decline draw", Instruction::DeclineDraw),
    ] {
        assert_eq!(instruction(text), Some(expected), "{text}");
    }
    assert_eq!(
        instruction("e4 if Nf6 then Bg5 Nc6 Bb5"),
        Some(Instruction::Move {
            text: "e4".into(),
            line: Some("Nf6 Bg5 Nc6 Bb5".into())
        })
    );
    assert_eq!(
        instruction("e4 // a gambit?\nIf Nf6 then Bg5\n> quoted"),
        Some(Instruction::Move {
            text: "e4 // a gambit?".into(),
            line: Some("Nf6 Bg5".into())
        })
    );
    assert_eq!(
        instruction("if Nf6 then Bg5"),
        Some(Instruction::LineWithoutMove("Nf6 Bg5".into()))
    );
    assert_eq!(instruction("\n\n  \n"), None);
}

#[test]
fn an_html_only_reply_is_read_from_its_text() {
    let body = "<html><body><div dir=\"ltr\">Nc3</div><br><div class=\"gmail_quote\">\
                <div>On Thu, Nov 26, 2026 at 5:00 PM Missive &lt;m@x.test&gt; wrote:<br></div>\
                <blockquote>resign</blockquote></div></body></html>\r\n";
    let raw = mail(
        "MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n",
        body,
    );
    assert_eq!(move_of(&raw), just("Nc3"));
}

#[test]
fn quoted_printable_and_base64_bodies() {
    // A soft line break inside the comment, and `=3D` for `=`.
    let qp = mail(
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: quoted-printable\r\n",
        "e8=3DQ // pro=\r\nmotion =C3=A0 la dame\r\n\r\n> old\r\n",
    );
    assert_eq!(move_of(&qp), just("e8=Q // promotion à la dame"));
    let b64 = mail(
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: base64\r\n",
        "TmY2IC8vIGJhc2U2NAoKPiBxdW90ZWQK\r\n",
    );
    assert_eq!(move_of(&b64), just("Nf6 // base64"));
}

#[test]
fn an_iso_8859_1_reply_in_a_multipart_mail() {
    // "Fxe5 // très bien" in Latin-1 (è is one byte, 0xE8), with an HTML
    // alternative that says something else: the text part is read.
    let mut raw = mail(
        "MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b1\"\r\n",
        "",
    );
    raw.extend_from_slice(
        b"--b1\r\nContent-Type: text/plain; charset=ISO-8859-1\r\n\
          Content-Transfer-Encoding: 8bit\r\n\r\nFxe5 // tr\xe8s bien\r\n\r\n\
          Le 26/11/2026 \xe0 17:00, Missive a \xe9crit :\r\n> resign\r\n\
          --b1\r\nContent-Type: text/html; charset=ISO-8859-1\r\n\r\n<p>not this</p>\r\n--b1--\r\n",
    );
    assert_eq!(move_of(&raw), just("Fxe5 // très bien"));
}

#[test]
fn what_is_not_a_message() {
    assert_eq!(read_message(b""), None);
    let no_id = b"From: a@b.test\r\nTo: x@y.test\r\n\r\ne4\r\n";
    let reply = read_message(no_id).unwrap();
    assert_eq!(reply.message_id, None);
    assert_eq!(reply.header_recipients, 1);
}
