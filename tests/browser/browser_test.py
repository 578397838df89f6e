#!/usr/bin/python3
"""fitrank serve in a real browser: headless Chromium driven by chromedriver (python3-selenium).

Usage: browser_test.py FITRANK_BINARY SCREENSHOT_DIR

Starts `fitrank serve --port 0` on 127.0.0.1, then checks that the GPU page renders every
block, switching the operating mode changes the picks, the quantization explorer updates, the
embed card loads in an iframe, the search form leads to picks, a phone-sized window has no
horizontal scrolling, and no page logs a console error (a Content-Security-Policy violation
is one). A screenshot per page goes to SCREENSHOT_DIR. Needs no network: Chromium runs with
background networking off and only ever loads 127.0.0.1.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

FITRANK = None
SHOTS = None
BASE = None
SERVER = None

SECTIONS_GPU = ["mode", "specs", "traits", "capability", "picks", "out-of-reach", "diffusion",
                "scaling", "buying", "upgrades"]


def start_server(binary):
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--quiet"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    line = proc.stderr.readline()
    m = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
    if not m:
        proc.kill()
        raise RuntimeError("fitrank serve did not start: " + line)
    return proc, m.group(1)


class Browser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.profile = tempfile.mkdtemp(prefix="fitrank-chromium-")
        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                  "--user-data-dir=" + cls.profile, "--window-size=1280,1800"]:
            opts.add_argument(a)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
        cls.driver.set_page_load_timeout(30)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        shutil.rmtree(cls.profile, ignore_errors=True)

    def open(self, path):
        self.driver.get(BASE + path)
        WebDriverWait(self.driver, 20).until(
            lambda d: d.execute_script("return document.readyState") == "complete")

    def assert_no_console_errors(self):
        errors = [e for e in self.driver.get_log("browser") if e.get("level") == "SEVERE"]
        self.assertEqual(errors, [], "console errors: %r" % errors)

    def shot(self, name):
        h = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(1280, min(max(h, 800), 6000))
        self.driver.save_screenshot(os.path.join(SHOTS, name + ".png"))
        self.driver.set_window_size(1280, 1800)

    def test_gpu_page_renders_every_block(self):
        self.open("/gpu/RTX%204090")
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "GeForce RTX 4090")
        for sid in SECTIONS_GPU:
            section = self.driver.find_element(By.ID, sid)
            self.assertTrue(section.is_displayed(), sid)
            self.assertTrue(section.text.strip(), sid)
        # The stylesheet and script loaded (the script marks <html class="js">).
        self.assertIn("js", self.driver.find_element(By.TAG_NAME, "html").get_attribute("class"))
        color = self.driver.find_element(By.CSS_SELECTOR, ".grade").value_of_css_property(
            "background-color")
        self.assertNotEqual(color, "rgba(0, 0, 0, 0)")
        self.assert_no_console_errors()
        self.shot("gpu")

    def test_switching_the_mode_changes_the_picks(self):
        self.open("/gpu/RTX%204090")
        before = self.driver.find_element(By.ID, "picks").text
        Select(self.driver.find_element(By.ID, "mode-select")).select_by_value("scale-out")
        WebDriverWait(self.driver, 20).until(lambda d: "mode=scale-out" in d.current_url)
        WebDriverWait(self.driver, 20).until(
            lambda d: d.execute_script("return document.readyState") == "complete")
        after = self.driver.find_element(By.ID, "picks").text
        self.assertNotEqual(before, after)
        self.assertEqual(Select(self.driver.find_element(By.ID, "mode-select"))
                         .first_selected_option.get_attribute("value"), "scale-out")
        self.assert_no_console_errors()

    def test_quant_explorer_updates(self):
        self.open("/fit/llama%203.1%208b/RTX%204090?quant=Q4_K_M")
        memory = self.driver.find_element(By.CSS_SELECTOR, ".quant-panel [data-field=memory]")
        before = memory.text
        select = Select(self.driver.find_element(By.ID, "quant-select"))
        select.select_by_value("Q8_0")
        want = select.first_selected_option.get_attribute("data-memory")
        WebDriverWait(self.driver, 10).until(lambda d: memory.text == want)
        self.assertNotEqual(before, memory.text)
        self.assertIn("quant=Q8_0", self.driver.current_url)  # the URL stays shareable
        grade = self.driver.find_element(By.CSS_SELECTOR, ".quant-panel [data-field=grade]").text
        self.assertEqual(grade, select.first_selected_option.get_attribute("data-grade"))
        self.assert_no_console_errors()
        self.shot("fit")

    def test_embed_card_loads_in_an_iframe(self):
        self.open("/fit/qwen3-30b-a3b/RTX%204090")
        frame = self.driver.find_element(By.CSS_SELECTOR, "iframe.embed-preview")
        self.driver.execute_script("arguments[0].scrollIntoView()", frame)
        self.driver.switch_to.frame(frame)
        card = WebDriverWait(self.driver, 20).until(
            lambda d: d.find_element(By.CSS_SELECTOR, ".card"))
        self.assertIn("Qwen3 30B-A3B", card.text)
        self.assertIn("tok/s", card.text)
        self.driver.switch_to.default_content()
        self.assert_no_console_errors()
        self.open("/embed/fit/qwen3-30b-a3b/RTX%204090")
        self.driver.set_window_size(420, 200)
        self.driver.save_screenshot(os.path.join(SHOTS, "embed.png"))
        self.driver.set_window_size(1280, 1800)

    def test_search_leads_to_picks(self):
        self.open("/")
        box = self.driver.find_element(By.ID, "gpu1")
        box.send_keys("RTX 4090")
        Select(self.driver.find_element(By.ID, "workload")).select_by_value("coding")
        self.driver.find_element(By.CSS_SELECTOR, "form[action='/recommend'] button").click()
        WebDriverWait(self.driver, 20).until(lambda d: "/recommend?" in d.current_url)
        self.assertIn("Best models for GeForce RTX 4090",
                      self.driver.find_element(By.TAG_NAME, "h1").text)
        self.assertGreater(len(self.driver.find_elements(By.CSS_SELECTOR, "#picks tbody tr")), 0)
        self.assert_no_console_errors()
        self.shot("recommend")

    def test_other_pages_without_console_errors(self):
        for path, name in [("/compare?gpu=RTX%204090&gpu=RTX%203090", "compare"),
                           ("/upgrade?gpu=RTX%203060%2012GB&budget=2000", "upgrade"),
                           ("/", "search")]:
            self.open(path)
            self.assertTrue(self.driver.find_element(By.TAG_NAME, "h1").text)
            self.assert_no_console_errors()
            self.shot(name)

    def test_phone_width_has_no_horizontal_scroll(self):
        self.driver.set_window_size(390, 844)
        try:
            for path in ["/", "/gpu/RTX%204090", "/fit/llama%203.1%208b/RTX%204090"]:
                self.open(path)
                overflow = self.driver.execute_script(
                    "return document.documentElement.scrollWidth - window.innerWidth")
                self.assertLessEqual(overflow, 1, path)
        finally:
            self.driver.set_window_size(1280, 1800)

    def test_keyboard_reaches_the_mode_select(self):
        self.open("/gpu/RTX%204090")
        body = self.driver.find_element(By.TAG_NAME, "body")
        seen = []
        for _ in range(12):
            self.driver.switch_to.active_element.send_keys("\t") if seen else body.send_keys("\t")
            seen.append(self.driver.switch_to.active_element.get_attribute("id"))
            if "mode-select" in seen:
                break
        self.assertIn("mode-select", seen)


def main():
    global FITRANK, SHOTS, BASE, SERVER
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    FITRANK, SHOTS = sys.argv[1], sys.argv[2]
    os.makedirs(SHOTS, exist_ok=True)
    SERVER, BASE = start_server(FITRANK)
    try:
        result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    finally:
        SERVER.terminate()
        SERVER.wait(timeout=20)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
