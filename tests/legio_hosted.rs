//! VII Legio on the real server, tried from outside over real gRPC: a
//! stranger's connection and the seated rivals' own. Nothing anyone
//! receives (refusals, views, streams, history, forks, undo) names a card
//! of another seat's hand or objectives, and a stored game replays after a
//! restart.

mod common;

use common::{Server, temp_dir};
use legio_engine::content::Content;
use std::collections::BTreeSet;
use tabletop::{GameServiceClient, any, legio_pb, pb};
use tokio_stream::StreamExt;
use tonic::transport::Channel;

fn legio_request(players: u32) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        game_type: "legio".into(),
        seats: vec![pb::SeatOpenTo::Any as i32; players as usize],
        setup: Some(pb::create_game_request::Setup::GameSetup(any::pack(&legio_pb::LegioSetup {
            players,
            ..Default::default()
        }))),
        ..Default::default()
    }
}

async fn claim(c: &mut GameServiceClient<Channel>, id: &str, seats: u32) -> Vec<String> {
    common::claim_seats(c, id, seats).await
}

fn creds(tokens: &[String], seat: u32) -> Option<pb::SeatCredentials> {
    Some(pb::SeatCredentials { seat, token: tokens[seat as usize].clone() })
}

async fn view(c: &mut GameServiceClient<Channel>, id: &str, who: Option<pb::SeatCredentials>) -> pb::GameState {
    c.get_view(pb::GetViewRequest { game_id: id.into(), credentials: who, ..Default::default() })
        .await
        .expect("view")
        .into_inner()
        .state
        .expect("state")
}

/// The ids of a seat's own secrets, from its own view: hand cards,
/// objectives kept and on offer, cards it paid face down.
fn own_secrets(state: &pb::GameState) -> BTreeSet<String> {
    let c = Content::get();
    let v = legio_wire::view(state).expect("a legio state");
    let Some(mine) = v.mine else { return BTreeSet::new() };
    let card = |i: &u8| c.exploration[usize::from(*i)].id.clone();
    let objective = |i: &u8| c.objectives[usize::from(*i)].id.clone();
    mine.hand
        .iter()
        .chain(&mine.discarded)
        .map(card)
        .chain(mine.objectives.iter().chain(&mine.offer).map(objective))
        .collect()
}

/// Every word in what a caller received: option ids, labels, prompt and
/// the event lines, split into tokens.
fn words(state: &pb::GameState, events: &[pb::Event]) -> BTreeSet<String> {
    let d = state.decision.clone().unwrap_or_default();
    let mut text = vec![d.prompt, d.kind];
    for o in d.options {
        text.extend([o.id, o.label, o.payload_json]);
    }
    text.extend(events.iter().map(|e| e.summary.clone()));
    text.iter()
        .flat_map(|t| {
            t.split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '-'))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[tokio::test]
async fn a_stranger_and_the_rivals_learn_no_card_they_may_not_see_and_the_game_survives_a_restart() {
    let server = Server::start_in(temp_dir("legio-secrets"), &[]);
    let mut c = server.client().await;
    let created = c.create_game(legio_request(3)).await.expect("create").into_inner();
    let (id, creator) = (created.game.clone().expect("game").game_id, created.creator_token);
    assert_eq!(created.game.as_ref().and_then(|g| g.seed), None, "the creator of a live VII Legio game gets no seed");
    let tokens = claim(&mut c, &id, 3).await;
    // Every seat follows the game on its own stream; a stranger too.
    let mut streams = Vec::new();
    for who in [creds(&tokens, 0), creds(&tokens, 1), creds(&tokens, 2), None] {
        let s = c
            .stream_game(pb::StreamGameRequest {
                game_id: id.clone(),
                from_seq: 0,
                credentials: who,
                ..Default::default()
            })
            .await
            .expect("stream")
            .into_inner();
        streams.push(s);
    }
    let (mut steps, mut refusals, mut undo_refused) = (0, 0, 0);
    let mut seen_secrets = 0;
    while steps < 150 {
        let states = [
            view(&mut c, &id, creds(&tokens, 0)).await,
            view(&mut c, &id, creds(&tokens, 1)).await,
            view(&mut c, &id, creds(&tokens, 2)).await,
            view(&mut c, &id, None).await,
        ];
        if states[0].outcome.is_some() {
            break;
        }
        let secrets: Vec<BTreeSet<String>> = states[..3].iter().map(own_secrets).collect();
        seen_secrets += secrets.iter().filter(|s| !s.is_empty()).count();
        assert!(legio_wire::view(&states[3]).expect("spectator").mine.is_none(), "a stranger holds no private part");
        assert!(states[3].decision.as_ref().is_none_or(|d| d.options.is_empty()), "a stranger is shown no option");
        for (who, state) in states.iter().enumerate() {
            let shown = words(state, &[]);
            for (owner, own) in secrets.iter().enumerate() {
                if owner != who {
                    assert!(
                        own.is_disjoint(&shown),
                        "viewer {who} is shown a secret of seat {owner}: {:?}",
                        own.intersection(&shown).collect::<Vec<_>>()
                    );
                }
            }
        }
        let d = states[0].decision.clone().expect("decision");
        let decider = d.deciders[0];
        let mine = states[decider as usize].decision.clone().expect("decider's decision");
        let option = mine.options[(steps * 7) % mine.options.len()].id.clone();
        // A rival that does not decide: the same refusal for the decider's
        // own id (perhaps a card of its hand) and for nonsense.
        let rival = (decider + 1) % 3;
        let mut answers = Vec::new();
        for probe in [option.clone(), "explore:e1".into(), "no-such-thing".into()] {
            let err = c
                .submit_choice(pb::SubmitChoiceRequest {
                    game_id: id.clone(),
                    credentials: creds(&tokens, rival),
                    expected_seq: Some(states[0].seq),
                    choice: Some(pb::submit_choice_request::Choice::OptionId(probe)),
                })
                .await
                .expect_err("not the rival's decision");
            answers.push((err.code(), err.message().to_string()));
        }
        assert!(answers.iter().all(|a| *a == answers[0]), "one refusal whatever the rival sends: {answers:?}");
        assert_eq!(answers[0].0, tonic::Code::PermissionDenied);
        refusals += 1;
        // The decider's own wrong id is told nothing of the options.
        let err = c
            .submit_choice(pb::SubmitChoiceRequest {
                game_id: id.clone(),
                credentials: creds(&tokens, decider),
                expected_seq: Some(states[0].seq),
                choice: Some(pb::submit_choice_request::Choice::OptionId("no-such-thing".into())),
            })
            .await
            .expect_err("unknown id");
        for (owner, own) in secrets.iter().enumerate() {
            assert!(
                own.iter().all(|s| !err.message().contains(s.as_str())),
                "a refusal names seat {owner}'s secret: {}",
                err.message()
            );
        }
        let r = c
            .submit_choice(pb::SubmitChoiceRequest {
                game_id: id.clone(),
                credentials: creds(&tokens, decider),
                expected_seq: Some(states[0].seq),
                choice: Some(pb::submit_choice_request::Choice::OptionId(option.clone())),
            })
            .await
            .expect("the decider's option")
            .into_inner();
        let revealed =
            r.events.iter().any(|e| e.kind == "objectives_offered" || e.kind == "drew" || e.kind == "decoded");
        if revealed && r.state.as_ref().is_some_and(|s| s.outcome.is_none()) {
            assert!(!r.state.as_ref().is_some_and(|s| s.can_undo), "a step that showed a card is not undoable");
            let undo = c
                .undo(pb::UndoRequest {
                    game_id: id.clone(),
                    credentials: creds(&tokens, decider),
                    expected_seq: Some(r.seq),
                })
                .await;
            assert!(undo.is_err(), "undo after '{option}' (which showed something) was refused");
            undo_refused += 1;
        }
        for (owner, own) in secrets.iter().enumerate() {
            let lines = words(&pb::GameState::default(), &r.events);
            assert!(own.is_disjoint(&lines), "an event line names seat {owner}'s secret");
        }
        steps += 1;
    }
    assert!(
        steps > 30 && refusals > 30 && seen_secrets > 0 && undo_refused > 0,
        "steps {steps}, undo refused {undo_refused}"
    );

    // History: a stranger (and the creator, the game being live) reads no
    // option id; each stream shows its own seat's choices only.
    let history = c
        .get_history(pb::GetHistoryRequest {
            game_id: id.clone(),
            creator_token: creator.clone(),
            ..Default::default()
        })
        .await
        .expect("history")
        .into_inner();
    assert!(
        history.entries.iter().all(|e| e.option_id.is_empty() || e.option_id == "undo"),
        "no option id in a live game's history"
    );
    assert_eq!(history.game.as_ref().and_then(|g| g.seed), None, "no seed for the creator of a live VII Legio game");
    // A stranger's stream runs the game's spectator delay behind (VII
    // Legio delays spectators by default).
    let delay = history.game.as_ref().map_or(0, |g| g.spectator_delay) as usize;
    assert!(delay > 0, "a competitive game with private hands delays its spectators");
    for (i, stream) in streams.iter_mut().enumerate() {
        let mut entries = 0;
        let expected = if i < 3 { steps } else { steps.saturating_sub(delay) };
        while entries < expected {
            let u = tokio::time::timeout(std::time::Duration::from_secs(10), stream.next())
                .await
                .expect("update")
                .expect("open")
                .expect("ok");
            if let Some(e) = u.entry {
                entries += 1;
                let mine = i < 3 && e.seat == i as u32;
                assert_eq!(
                    !e.option_id.is_empty(),
                    mine,
                    "stream {i} shows the option id of seq {} only to its chooser",
                    e.seq
                );
            }
            if i < 3 {
                let state = u.state.expect("state");
                assert!(
                    legio_wire::view(&state).expect("legio").mine.is_some(),
                    "a seat's stream carries its own part"
                );
            }
        }
    }

    // Forks of a live game, the creator's included, draw the hidden part
    // afresh: nobody gets a copy of the true hands.
    let fork = c
        .fork_game(pb::ForkGameRequest {
            source_game_id: id.clone(),
            at_seq: 0,
            creator_token: creator.clone(),
            ..Default::default()
        })
        .await
        .expect("fork")
        .into_inner();
    let forked = fork.game.expect("fork");
    assert_eq!(forked.seed, None, "the fork's seed stays secret too");

    // A restart replays the stored game to the same state.
    let before = view(&mut c, &id, None).await;
    let own_secrets_before = own_secrets(&view(&mut c, &id, creds(&tokens, 0)).await);
    let dir = server.terminate_keep();
    let server = Server::start_in(dir, &[]);
    let mut c = server.client().await;
    let after = view(&mut c, &id, None).await;
    assert_eq!(
        (after.seq, after.state_hash),
        (before.seq, before.state_hash),
        "the stored game replays after a restart"
    );
    let seat0 = own_secrets(&view(&mut c, &id, creds(&tokens, 0)).await);
    assert_eq!(seat0, own_secrets_before, "seat 0 holds the same hand and objectives after the restart");
}

#[tokio::test]
async fn ai_agents_fill_vii_legio_seats_and_play_a_game_to_its_ranked_end() {
    // `xodus-ai --fill` plays VII Legio seats with its VII Legio policy: a
    // table of AI seats is never stuck, and the game ends with a ranked (or
    // truncated) outcome.
    let server = Server::start_in(temp_dir("legio-fill"), &[]);
    let mut c = server.client().await;
    let mut request = legio_request(2);
    request.seats = vec![pb::SeatOpenTo::Ai as i32; 2];
    let id = c.create_game(request).await.expect("create").into_inner().game.expect("game").game_id;
    let _agent = common::Agent::spawn_fill(&server.url, &server.data_dir, "heuristic");
    let mut stream = c
        .stream_game(pb::StreamGameRequest { game_id: id.clone(), from_seq: 0, ..Default::default() })
        .await
        .expect("stream")
        .into_inner();
    let outcome = loop {
        let u = tokio::time::timeout(std::time::Duration::from_secs(60), stream.next())
            .await
            .expect("the AI seats keep moving")
            .expect("the stream ends with the game")
            .expect("ok");
        if let Some(o) = u.state.and_then(|s| s.outcome) {
            break o;
        }
    };
    assert_eq!(outcome.kind, pb::OutcomeKind::Ranked as i32);
    assert_eq!(outcome.scores.len(), 2);
    assert!(outcome.truncated == outcome.ranking.is_empty(), "a ranking unless truncated: {outcome:?}");
    // The agent logs each seat's end as its own: won exactly for the winners.
    let log_path = server.data_dir.join("ai.log");
    let start = std::time::Instant::now();
    let ends = loop {
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        let ends: Vec<String> = log.lines().filter(|l| l.contains("game over")).map(str::to_string).collect();
        if ends.len() >= 2 || start.elapsed() > std::time::Duration::from_secs(20) {
            break ends;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(ends.len(), 2, "one end line per seat: {ends:?}");
    for seat in 0..2u32 {
        let line = ends.iter().find(|l| l.contains(&format!("seat={seat} "))).expect("the seat's end line");
        let won = outcome.winners.contains(&seat);
        assert!(line.contains(&format!("won={won}")), "seat {seat} (winners {:?}): {line}", outcome.winners);
    }
    // Once it is over its choices are public: a replay and the history show
    // every option id.
    let history = c
        .get_history(pb::GetHistoryRequest { game_id: id.clone(), creator_token: String::new(), ..Default::default() })
        .await
        .expect("history")
        .into_inner();
    assert!(!history.entries.is_empty() && history.entries.iter().all(|e| !e.option_id.is_empty()));
    let mut replay = c
        .stream_game(pb::StreamGameRequest { game_id: id.clone(), from_seq: 0, ..Default::default() })
        .await
        .expect("replay")
        .into_inner();
    let mut entries = 0;
    while let Some(u) = replay.next().await {
        if let Some(e) = u.expect("ok").entry {
            assert!(!e.option_id.is_empty(), "seq {} of a finished game shows its option id", e.seq);
            entries += 1;
        }
    }
    assert_eq!(entries, history.entries.len(), "the replay streams every entry");
}

#[tokio::test]
async fn the_catalog_serves_vii_legio_content_with_names_and_texts() {
    // A front-end draws card faces from GetCatalog: every category a VII
    // Legio table shows is there, each entry named and explained.
    let server = Server::start_in(temp_dir("legio-catalog"), &[]);
    let mut c = server.client().await;
    let entries =
        c.get_catalog(pb::GetCatalogRequest { game_type: "legio".into() }).await.expect("catalog").into_inner().entries;
    let content = Content::get();
    for (category, count) in [
        ("exploration", content.exploration.len()),
        ("extrasolar", content.extrasolar.len()),
        ("objective", content.objectives.len()),
    ] {
        let of: Vec<&pb::CatalogEntry> = entries.iter().filter(|e| e.category == category).collect();
        assert_eq!(of.len(), count, "every {category} entry");
        assert!(of.iter().all(|e| !e.name.is_empty() && !e.text.is_empty()), "{category}: named and explained");
    }
    for category in ["sector", "expert", "ship", "imperator"] {
        assert!(entries.iter().any(|e| e.category == category), "the catalog has {category} entries");
    }
}
