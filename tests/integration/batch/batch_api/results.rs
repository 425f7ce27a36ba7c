//! Polling each batch API through its states to the end, then reading mixed results.

use super::*;

#[tokio::test]
async fn anthropic_polls_to_ended_then_reads_mixed_results() {
    let (api, server, p) = setup(ANTHROPIC).await;
    let url = format!("{}{A_BATCH}/results", server.uri());
    let bodies = vec![
        anthropic_batch("in_progress", [5, 0, 0, 0, 0], None),
        anthropic_batch("canceling", [5, 0, 0, 0, 0], None),
        anthropic_batch("ended", [0, 1, 2, 1, 1], Some(url.clone())),
    ];
    successive(&server, A_BATCH, bodies).await;
    let lines = [
        json!({"custom_id": "ok", "result": {"type": "succeeded", "message": (api.ok)("ANSWER")}}),
        json!({"custom_id": "busy", "result": anthropic_error("overloaded_error", "Overloaded")}),
        json!({"custom_id": "bad", "result": anthropic_error("invalid_request_error", "too long")}),
        json!({"custom_id": "late", "result": {"type": "expired"}}),
        json!({"custom_id": "stop", "result": {"type": "canceled"}}),
    ];
    reply(&server, &format!("GET {A_BATCH}/results"), jsonl(&lines)).await;
    let b = batch(p.as_ref());
    let want = [
        ("in_progress", Phase::Running, 0, 5),
        ("canceling", Phase::Running, 0, 5),
        ("ended", Phase::Ended, 5, 5),
    ];
    let status = poll_through(b, "msgbatch_1", &want).await;
    assert_eq!(status.raw["results_url"], *url);

    let o = results(b, &status).await;
    assert_eq!(o.len(), 5);
    // Its request id is the custom id (`message.id` names the message, not the request).
    assert_live_answer(&api, answer(&o, "ok"), "ok");
    let busy = failed(&o, "busy");
    assert_status(busy, 529, true, "overloaded_error: Overloaded");
    let bad = failed(&o, "bad");
    assert_status(bad, 400, false, "invalid_request_error: too long");
    assert_eq!(bad.request_id(), Some("req_err"));
    assert!(matches!(o["late"], Outcome::Expired));
    assert!(matches!(o["stop"], Outcome::Canceled));
    let reqs = received(&server).await;
    assert!(reqs.iter().all(|r| hdr(r, "x-api-key") == FAKE_KEY));
    let fetch = reqs.last().unwrap();
    assert_eq!(fetch.url.path(), format!("{A_BATCH}/results"));
    assert_eq!(hdr(fetch, "anthropic-version"), "2023-06-01");
}

#[tokio::test]
async fn openai_polls_every_state_then_reads_both_files() {
    for i in [CHAT, RESPONSES] {
        let (api, server, p) = setup(i).await;
        let mut completed = openai_batch("completed", [6, 1, 5]);
        completed["output_file_id"] = json!("file-out");
        completed["error_file_id"] = json!("file-err");
        let bodies = vec![
            openai_batch("validating", [0, 0, 0]),
            openai_batch("in_progress", [6, 1, 2]),
            openai_batch("finalizing", [6, 1, 5]),
            completed,
        ];
        successive(&server, O_BATCH, bodies).await;
        let output = [openai_line("ok", 200, (api.ok)("ANSWER"))];
        reply(&server, "GET /v1/files/file-out/content", jsonl(&output)).await;
        let error = |message| json!({"error": {"message": message, "type": "x"}});
        let errors = [
            openai_line("bad", 400, error("Invalid 'max_tokens'")),
            openai_line("busy", 429, error("Rate limit reached")),
            openai_unrun("late", "batch_expired"),
            openai_unrun("stop", "batch_cancelled"),
            openai_unrun("slow", "request_timeout"),
        ];
        reply(&server, O_ERRORS, jsonl(&errors)).await;
        let b = batch(p.as_ref());
        let want = [
            ("validating", Phase::Running, 0, 0),
            ("in_progress", Phase::Running, 3, 6),
            ("finalizing", Phase::Running, 6, 6),
            ("completed", Phase::Ended, 6, 6),
        ];
        let status = poll_through(b, "batch_1", &want).await;

        let o = results(b, &status).await;
        assert_eq!(o.len(), 6, "{}", api.spec);
        assert_live_answer(&api, answer(&o, "ok"), "req_ok");
        let bad = failed(&o, "bad");
        assert_status(bad, 400, false, "Invalid 'max_tokens'");
        assert_eq!(bad.request_id(), Some("req_bad"));
        let busy = failed(&o, "busy");
        assert_status(busy, 429, true, "Rate limit reached");
        assert!(busy.throttled());
        assert!(matches!(o["late"], Outcome::Expired), "{}", api.spec);
        assert!(matches!(o["stop"], Outcome::Canceled), "{}", api.spec);
        assert!(matches!(failed(&o, "slow"), ProviderError::Timeout));
        let reqs = received(&server).await;
        assert_eq!(reqs.len(), 6);
        for r in &reqs {
            assert_eq!(hdr(r, "authorization"), format!("Bearer {FAKE_KEY}"));
        }

        // The other states of a batch's life; a failed batch names the line at fault.
        let why = "line 2: This line is not parseable as valid JSON.";
        for (state, phase) in [
            ("cancelling", Phase::Running),
            ("cancelled", Phase::Ended),
            ("expired", Phase::Ended),
            ("failed", Phase::Failed(why.into())),
        ] {
            let mut polled = openai_batch(state, [2, 1, 0]);
            polled["errors"] = json!({"object": "list", "data": [{"code": "invalid_json_line",
                "line": 2, "message": "This line is not parseable as valid JSON.", "param": null}]});
            let route = format!("GET /v1/batches/{state}");
            reply(&server, &route, polled).await;
            poll_through(b, state, &[(state, phase, 1, 2)]).await;
        }
    }
}

#[tokio::test]
async fn gemini_polls_to_succeeded_then_reads_inline_results() {
    let (api, server, p) = setup(GEMINI).await;
    let mut succeeded = gemini_op("BATCH_STATE_SUCCEEDED", [3, 1, 2]);
    succeeded["response"] = inlined(json!([
        {"response": (api.ok)("ANSWER"), "metadata": {"key": "ok"}},
        {"error": {"code": 8, "message": "Resource exhausted"}, "metadata": {"key": "busy"}},
        {"error": {"code": 3, "message": "Invalid argument"}, "metadata": {"key": "bad"}},
    ]));
    let bodies = vec![
        gemini_op("BATCH_STATE_PENDING", [3, 0, 0]),
        gemini_op("BATCH_STATE_RUNNING", [3, 1, 0]),
        succeeded,
    ];
    successive(&server, G_BATCH, bodies).await;
    let b = batch(p.as_ref());
    let want = [
        ("BATCH_STATE_PENDING", Phase::Running, 0, 3),
        ("BATCH_STATE_RUNNING", Phase::Running, 1, 3),
        ("BATCH_STATE_SUCCEEDED", Phase::Ended, 3, 3),
    ];
    let status = poll_through(b, "batches/b1", &want).await;
    let o = results(b, &status).await;
    assert_eq!(o.len(), 3);
    assert_live_answer(&api, answer(&o, "ok"), "gem-123");
    assert_status(failed(&o, "busy"), 429, true, "Resource exhausted");
    assert_status(failed(&o, "bad"), 400, false, "Invalid argument");
    // The answers come inline: nothing but the polls was fetched.
    assert_eq!(received(&server).await.len(), 3);

    // Answers without `metadata.key` (python-genai#2008) are read, not a failed read: the
    // runner matches them by position.
    let mut keyless = gemini_op("BATCH_STATE_SUCCEEDED", [2, 2, 0]);
    keyless["response"] = inlined(json!([
        {"response": (api.ok)("ANSWER")},
        {"response": (api.ok)("ANSWER"), "metadata": {"key": "second"}},
    ]));
    reply(&server, "GET /v1beta/batches/b5", keyless).await;
    let status = b.poll("batches/b5").await.unwrap();
    let got = b.results(&status).await.unwrap();
    let keys: Vec<Option<&str>> = got.iter().map(|(k, _)| k.as_deref()).collect();
    assert_eq!(keys, [None, Some("second")]);
    assert!(matches!(got[0].1, Outcome::Answer(_)));

    // The docs' JOB_STATE_ spelling, counts as numbers, the output where the SDK reads it.
    let job = |state| {
        json!({"name": "batches/b2", "metadata": {"state": state,
        "batchStats": {"requestCount": 1, "successfulRequestCount": 1}}})
    };
    let mut job_done = job("JOB_STATE_SUCCEEDED");
    let answers = json!([{"response": (api.ok)("ANSWER"), "metadata": {"key": "ok"}}]);
    job_done["metadata"]["output"] = inlined(answers);
    let bodies = vec![job("JOB_STATE_RUNNING"), job_done];
    successive(&server, "/v1beta/batches/b2", bodies).await;
    let want = [
        ("JOB_STATE_RUNNING", Phase::Running, 1, 1),
        ("JOB_STATE_SUCCEEDED", Phase::Ended, 1, 1),
    ];
    let status = poll_through(b, "batches/b2", &want).await;
    let o = results(b, &status).await;
    assert_eq!(o.len(), 1);
    assert_live_answer(&api, answer(&o, "ok"), "gem-123");

    // An expired job has no output: no results (the runner counts missing ids as expired).
    let expired = gemini_op("BATCH_STATE_EXPIRED", [2, 0, 0]);
    reply(&server, "GET /v1beta/batches/b3", expired).await;
    assert!(outcomes(b, "batches/b3").await.is_empty());

    // A failed job says why.
    let mut failed = gemini_op("BATCH_STATE_FAILED", [2, 0, 0]);
    failed["error"] = json!({"code": 3, "message": "Request contains an invalid argument."});
    reply(&server, "GET /v1beta/batches/b4", failed).await;
    let why = Phase::Failed("Request contains an invalid argument.".into());
    poll_through(b, "batches/b4", &[("BATCH_STATE_FAILED", why, 0, 2)]).await;
}
