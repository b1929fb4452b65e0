"""Browser test of History: one picture per habit (a heatmap from its first week with weeks from the account's
week start, month names and a legend, each day a button to see and change it; the streaks in words;
the score curve over the days the habit has existed), no quotes. Run by test_web_app.py's main.
"""
import datetime
import re

from playwright.sync_api import expect

from test_habits import both_sizes
from test_notifications import accessible
from test_web_app import at, day_cell, day_panel_says, question, sign_up

CREATED = "2026-11-10T07:00:00-05:00"
FRIDAY = "2026-11-20T07:00:00-05:00"


def history_shows_a_year_per_habit_and_a_tapped_day_can_be_marked_done(server, context, page):
    token = sign_up(server, page, instant=CREATED)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    server.api("PATCH", "/api/auth/profile", token, {"weekStart": "sunday"}, now=CREATED)
    walk = server.api("POST", "/api/habits", token, {"name": "Walk"}, now=CREATED)
    entries = {"2026-11-10": "done", "2026-11-11": "done", "2026-11-12": "skipped",
               "2026-11-16": "done", "2026-11-17": "done", "2026-11-18": "done", "2026-11-19": "done"}
    for day, status in entries.items():
        server.api("PUT", f"/api/habits/{walk['id']}/entries/{day}", token, {"status": status}, now=FRIDAY)
    at(page, FRIDAY)
    page.reload()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    page.get_by_role("button", name="History").click()

    # The sign-up's check-in habit has its own card: this looks at Walk's.
    history = page.locator(f"#history article[data-habit='{walk['id']}']")
    # The cells say the server's states, each day in words; days before the habit and after today are
    # not buttons.
    for day, state in (("2026-11-10", "done"), ("2026-11-12", "skipped"), ("2026-11-13", "missed"),
                       ("2026-11-19", "done")):
        expect(day_cell(history, "Walk", day, state)).to_be_visible()
    expect(history.get_by_role("group", name=re.compile(r"^Walk: every week since Tuesday,? (10 November|November 10)$"))).to_be_visible()
    assert history.locator("button[data-day='2026-11-09']").count() == 0
    assert history.locator("button[data-day='2026-11-21']").count() == 0
    # Weeks start on Sunday (the account's), from the habit's first week (issue 40: not a year of
    # blanks), with month names and a legend.
    sunday = history.locator("button[data-day='2026-11-15']")
    assert sunday.evaluate("(cell) => cell.previousElementSibling.classList.contains('month')")
    weeks = history.locator(".week").count()
    assert weeks == 2, weeks
    expect(history.locator(".week .month", has_text="Nov")).to_have_count(1)
    expect(history.locator(".legend")).to_contain_text("missed")
    expect(history.locator(".legend")).to_contain_text("travel")
    # The streaks in words, as the API counts them.
    report = server.api("GET", f"/api/habits/{walk['id']}/report?weeks=2", token, now=FRIDAY)["habits"][0]
    expect(history.locator(".streaks")).to_contain_text(
        f"Current streak {report['currentStreak']} days; longest {report['longestStreak']}")
    assert report["currentStreak"] == 4 and report["longestStreak"] == 4, report
    # Its span and the score's first day in words, not ISO dates.
    first, last = (datetime.date.fromisoformat(report[key]) for key in ("longestStreakStart", "longestStreakEnd"))
    expect(history.locator(".streaks")).to_contain_text(
        f"longest 4 days ({first.day} {first:%b} to {last.day} {last:%b})")
    expect(history.locator(".score figcaption")).to_contain_text("Score (up the side) from 10 Nov (11 days)")
    # The score curve: one point per day from the habit's first day (2026-11-10) to today, 11.
    curve = history.get_by_role("img", name="Walk: score over its 11 days", exact=False)
    expect(curve).to_be_visible()
    assert curve.locator("polyline").evaluate("(line) => line.points.numberOfItems") == 11
    # No report --svg picture and no quotes in History.
    assert page.locator("#history img").count() == 0
    expect(page.locator("#history")).not_to_contain_text("quotes")
    accessible(page, "#history")
    both_sizes(page, "history")

    # Tapping a missed day shows it with Done; Done records it and the map says so.
    day_cell(history, "Walk", "2026-11-14", "missed").click()
    day_panel_says(history, "2026-11-14", "missed")
    # The day in words, not as ISO: "Saturday 14 November" (or the browser's English order).
    expect(history.locator(".day-panel time")).to_have_text(re.compile(r"^Saturday,? (14 November|November 14)$"))
    history.locator(".day-panel").get_by_role("button", name="Done", exact=True).click()
    expect(day_cell(history, "Walk", "2026-11-14", "done")).to_be_focused()
    days = server.api("GET", f"/api/habits/{walk['id']}/report?weeks=2", token, now=FRIDAY)["habits"][0]["days"]
    assert {"day": "2026-11-14", "state": "done"} in [{"day": d["day"], "state": d["state"]} for d in days], days
    # The curve's points are the report's scores: the last one is the habit's score.
    assert days[-1]["score"] == server.api(
        "GET", f"/api/habits/{walk['id']}/report?weeks=2", token, now=FRIDAY)["habits"][0]["score"], days
    # Undo takes it back.
    history.locator(".day-panel").get_by_role("button", name="Undo", exact=True).click()
    expect(day_cell(history, "Walk", "2026-11-14", "missed")).to_be_visible()
    accessible(page, "#history")

    # The keyboard: the map is one Tab stop, arrows move a roving focus, Enter opens the day.
    page.reload()
    expect(question(page)).to_be_hidden()
    page.get_by_role("button", name="History").click()
    stops = history.locator("button[data-day][tabindex='0']")
    expect(stops).to_have_count(1)
    expect(stops).to_have_attribute("data-day", "2026-11-20")
    stops.focus()
    page.keyboard.press("ArrowUp")
    expect(day_cell(history, "Walk", "2026-11-19", "done")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(day_cell(history, "Walk", "2026-11-12", "skipped")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(day_cell(history, "Walk", "2026-11-13", "missed")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(history.locator("button[data-day='2026-11-20']")).to_be_focused()
    page.keyboard.press("Home")
    expect(day_cell(history, "Walk", "2026-11-10", "done")).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(history.locator("button[data-day='2026-11-18']")).to_be_focused()
    expect(stops).to_have_count(1)
    page.keyboard.press("Enter")
    day_panel_says(history, "2026-11-18", "done")
    expect(day_cell(history, "Walk", "2026-11-18", "done")).to_be_focused()
    # Past the day panel's first control (its note), Shift+Tab comes back to the map on the chosen day.
    history.locator(".day-panel").get_by_label("Note (sent with Done or Skip)").focus()
    page.keyboard.press("Shift+Tab")
    expect(day_cell(history, "Walk", "2026-11-18", "done")).to_be_focused()
    accessible(page, "#history")


TESTS = [history_shows_a_year_per_habit_and_a_tapped_day_can_be_marked_done]
