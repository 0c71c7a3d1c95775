# The live board in a real browser (Debian's chromium, headless, driven by Selenium): tables live, offline marked, ranks in order.
import os
import shutil
import tempfile
import time

import pytest

from boardserver import BoardServer, board, table

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("TAFEL_REQUIRE_BROWSER"):
        raise RuntimeError("TAFEL_REQUIRE_BROWSER is set but chromium and chromedriver are not both installed")
    pytest.skip("needs Debian's chromium and chromium-driver (.ci/run installs them)", allow_module_level=True)

LEADERS = [{"variant": "standard", "rows": [
    {"place": 1, "name": "Cleo", "games": 2, "wins": 2, "points": 1015},
    {"place": 2, "name": "Anna", "games": 2, "wins": 1, "points": 720},
    {"place": 3, "name": "Ben", "games": 1, "wins": 0, "points": 300}]}]


@pytest.fixture
def browser():
    profile = tempfile.mkdtemp(prefix="tafel-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,900"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": "de-DE,de"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def server():
    s = BoardServer(board([table("esp32-aa", "1", ["Anna", "Ben"], [120, 0], dealer="Ben")], LEADERS,
                          now=int(time.time())))
    yield s
    s.close()


def cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, "article.table")


def test_a_round_played_appears_on_the_page_within_two_seconds(browser, server):
    browser.get(server.url)
    WebDriverWait(browser, 5).until(lambda d: len(cards(d)) == 1)
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"  # the browser's language
    assert "Tisch 1" in cards(browser)[0].text and "Runde 3" in cards(browser)[0].text
    server.publish(board([table("esp32-aa", "1", ["Anna", "Ben"], [120, 87], rounds=4, dealer="Anna",
                                last_round=int(time.time()))], LEADERS, now=int(time.time())))
    WebDriverWait(browser, 2).until(lambda d: "Runde 4" in cards(d)[0].text)
    text = cards(browser)[0].text
    assert "87" in text and "letzte Runde vor 0 min" in text


def test_an_offline_table_and_one_without_a_round_for_long_are_marked(browser, server):
    now = int(time.time())
    server.publish(board([
        table("esp32-aa", "1", ["Anna", "Ben"], [120, 0], status="offline", last_round=now - 60),
        table("esp32-bb", "2", ["Cleo", "Dora"], [0, 40], last_round=now - 20 * 60),
        table("esp32-cc", "3", ["Emil", "Fritz"], [510, 20], finished=True, last_round=now - 30 * 60),
    ], LEADERS, now=now, stale_min=15))
    browser.get(server.url + "?lang=en")
    WebDriverWait(browser, 5).until(lambda d: len(cards(d)) == 3)
    classes = {c.get_attribute("data-device"): c.get_attribute("class").split() for c in cards(browser)}
    assert "offline" in classes["esp32-aa"] and "stale" not in classes["esp32-aa"]
    assert "online" in classes["esp32-bb"] and "stale" in classes["esp32-bb"]  # 20 min without a round
    assert "finished" in classes["esp32-cc"] and "stale" not in classes["esp32-cc"]
    assert "offline" in cards(browser)[0].find_element(By.CLASS_NAME, "badge").text


def test_the_leaderboard_shows_the_places_in_order(browser, server):
    browser.get(server.url + "?lang=en")
    WebDriverWait(browser, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#leaders td.name"))
    names = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#leaders td.name")]
    assert names == ["Cleo", "Anna", "Ben"]
    assert "Leaderboard" in browser.find_element(By.ID, "leaders").text


def test_the_rooms_screen_has_large_type_and_no_organiser_controls(browser, server):
    browser.get(server.url + "?tv=1")
    WebDriverWait(browser, 5).until(lambda d: len(cards(d)) == 1)
    assert "tv" in browser.find_element(By.TAG_NAME, "body").get_attribute("class").split()
    assert not browser.find_element(By.ID, "organiser").is_displayed()


def test_the_drawn_round_shows_who_sits_where(browser, server):
    shown = board([table("esp32-aa", "1", ["Anna", "Ben"], [0, 0])], LEADERS, now=int(time.time()))
    shown["tournament"] = {"round": 2, "tables": [["Anna", "Dora"], ["Ben", "Cleo"]]}
    server.publish(shown)
    browser.get(server.url)
    WebDriverWait(browser, 5).until(lambda d: "Turnier Runde 2" in d.find_element(By.ID, "tournament").text)
    assert "Tisch 2: Ben, Cleo" in browser.find_element(By.ID, "tournament").text
