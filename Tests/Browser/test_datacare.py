"""Browser tests of a person's data as a whole (issue 41) in Chromium: "Download my data" (the JSON
and CSV files' content checked), "Import from Loop, harsh or MorningProof" (an export of another
account uploaded with its progress bar, then the summary in words), "Delete my account" (the
password asked, then the sign-in page, where the old password no longer signs in), and axe over
the three cards. Run by test_web_app.py's main.
"""
import json
import pathlib
import re
import tempfile
import urllib.error

from playwright.sync_api import expect

from test_web_app import PASSWORD, SHOTS, question, sign_up
from test_notifications import accessible

NOW = "2026-11-20T07:00:00-05:00"


def data_settings(page):
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_role("heading", name="Download my data")).to_be_visible()


def walked(server, token):
    """A habit "Walk" with its first day done, made through the API."""
    habit = server.api("POST", "/api/habits", token, {"name": "Walk"}, now=NOW)
    server.api("PUT", f"/api/habits/{habit['id']}/entries/today", token, {"status": "done"}, now=NOW)
    return habit


def datacare_downloads_the_history_as_json_and_csv(server, context, page):
    token = sign_up(server, page)
    walked(server, token)
    data_settings(page)
    card = page.locator("#data-download")
    with page.expect_download() as waiting:
        card.get_by_role("button", name="Download my data (JSON)").click()
    document = json.loads(pathlib.Path(waiting.value.path()).read_text())
    assert document["format"] == "morningproof-export", document
    # The check-in answered on sign-up is a habit too.
    walk = [habit for habit in document["habits"] if habit["name"] == "Walk"]
    assert [entry["day"] for entry in walk[0]["entries"]] == ["2026-11-20"], document
    assert re.fullmatch(r"morningproof-export-\d{4}-\d\d-\d\d\.json", waiting.value.suggested_filename)
    with page.expect_download() as waiting:
        card.get_by_role("button", name="Download as CSV").click()
    csv = pathlib.Path(waiting.value.path()).read_text()
    assert csv.startswith("habit,date,state,value,source,note\n"), csv
    assert "Walk,2026-11-20,done" in csv, csv
    expect(page.locator("#download-status")).to_contain_text("Downloaded morningproof-export-")
    accessible(page, "#data-care")
    page.locator("#data-care").screenshot(path=str(SHOTS / "phone-data-care.png"))


def datacare_imports_an_export_with_its_progress_and_says_what_it_added(server, context, page):
    # Another account's export: one habit with its day, padded to 3 MB so that the upload takes a while.
    folder = tempfile.TemporaryDirectory(prefix="morningproof-import-")
    file = exported_file(server, folder.name)
    file.write_text(file.read_text() + " " * (3 << 20))
    token = sign_up(server, page)
    data_settings(page)
    # Every value the progress bar shows, as the page sets it.
    page.evaluate("""() => {
        window.progressSeen = [];
        const bar = document.getElementById("import-progress");
        new MutationObserver(() => { if (!bar.hidden) window.progressSeen.push(Number(bar.value)); })
            .observe(bar, { attributes: true });
    }""")
    page.locator("#import-file").set_input_files(str(file))
    result = page.locator("#import-result")
    expect(result).to_contain_text("Added 1 habit and 1 day.")
    seen = page.evaluate("() => window.progressSeen")
    assert seen and max(seen) == 100, seen
    expect(page.locator("#import-progress")).to_be_visible()
    habits = server.api("GET", "/api/habits", token, now=NOW)["habits"]
    assert "Walk" in [habit["name"] for habit in habits], habits
    # The same file again adds nothing, and says so.
    page.locator("#import-file").set_input_files(str(file))
    expect(result).to_contain_text("Nothing new: every day it holds is here already (1 habit already here, merged).")
    # A file that is none of them is refused with the server's reason.
    junk = pathlib.Path(folder.name) / "notes.txt"
    junk.write_text("not a habit history")
    page.locator("#import-file").set_input_files(str(junk))
    expect(result).to_contain_text("Not imported: the upload is not a Loop Habit Tracker backup")
    accessible(page, "#data-care")
    folder.cleanup()


datacare_imports_an_export_with_its_progress_and_says_what_it_added.console_allows = ("status of 400",)


def datacare_deletes_the_account_and_its_sign_in_is_refused(server, context, page):
    token = sign_up(server, page)
    walked(server, token)
    data_settings(page)
    card = page.locator("#data-delete")
    expect(card.get_by_role("button", name="Download my data (JSON)")).to_be_visible()
    card.get_by_label("Yours, to confirm").fill("not my password")
    page.once("dialog", lambda dialog: dialog.accept())
    card.get_by_role("button", name="Delete my account").click()
    expect(page.locator("#delete-status")).to_contain_text("Not deleted")
    dialogs = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    card.get_by_label("Yours, to confirm").fill(PASSWORD)
    card.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_role("button", name="Sign in", exact=True)).to_be_visible()
    assert dialogs and "cannot be undone" in dialogs[0], dialogs
    assert page.evaluate("() => localStorage.getItem('morningproof.token')") is None
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.locator("#signin-error")).not_to_be_empty()
    expect(page.get_by_role("button", name="Sign in", exact=True)).to_be_visible()
    try:
        server.api("GET", "/api/auth/me", token)
        raise AssertionError("the deleted account's token still signs in")
    except urllib.error.HTTPError as error:
        assert error.code == 401, error.code


def exported_file(server, folder):
    """Another account's export (one habit, one day) as a file in `folder`."""
    other = server.api("POST", "/api/auth/signup", body={"email": "bo@example.com", "password": PASSWORD,
                                                        "timezone": "America/New_York"})["token"]
    walked(server, other)
    file = pathlib.Path(folder) / "morningproof-export.json"
    file.write_text(json.dumps(server.api("GET", "/api/export", other)))
    return file


def webkit_datacare_imports_an_export_and_deletes_the_account(server, page):
    """WebKit (test_webkit.py's Page): an import with its summary, then the account deleted."""
    from test_webkit import signed_up
    folder = tempfile.TemporaryDirectory(prefix="morningproof-import-")
    file = exported_file(server, folder.name)
    token = signed_up(server, page)
    page.click("Settings")
    page.wait(lambda: page.visible("#data-import"), "the import card")
    # WebDriver types a path into a file input it can see: the one behind the button is shown plainly.
    page.js("document.getElementById('import-file').className = ''")
    page.field("Choose a file to import").send_keys(str(file))
    page.wait_text("#import-result", "Added 1 habit and 1 day.")
    page.shot("data-care-import")
    page.js("window.confirm = () => true")
    page.fill("Yours, to confirm", PASSWORD, within="#data-delete")
    page.click("Delete my account")
    page.wait(lambda: page.button("Sign in"), "the sign-in page")
    try:
        server.api("GET", "/api/auth/me", token)
        raise AssertionError("the deleted account's token still signs in")
    except urllib.error.HTTPError as error:
        assert error.code == 401, error.code
    folder.cleanup()


WEBKIT_TESTS = [webkit_datacare_imports_an_export_and_deletes_the_account]

TESTS = [
    datacare_downloads_the_history_as_json_and_csv,
    datacare_imports_an_export_with_its_progress_and_says_what_it_added,
    datacare_deletes_the_account_and_its_sign_in_is_refused,
]
