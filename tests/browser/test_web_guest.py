"""A browser guest's own path (session 9's playtest), in headless Chromium against `fengsheng host
--web`: the language his browser asks for, a reloaded tab that needs Enter alone, and a page that
says why its session ended (he left, or the host closed the table)."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from fengsheng_tui.doors.web import browser_lang

from .cdp import Chromium, Page
from .conftest import Host, need_chromium


@pytest.mark.parametrize(("header", "lang"), [
    ("zh-CN,zh;q=0.9,en;q=0.8", "zh"), ("en-GB,en;q=0.9", "en"), ("fr-FR,fr;q=0.9,en;q=0.5,zh;q=0.4", "en"),
    ("de;q=0.9,zh-TW;q=0.8", "zh"), ("en;q=0.2,zh;q=0.8", "zh"), ("fr", None), ("", None), (None, None),
    ("en;q=junk,zh", "zh"), ("zh;q=0", None),
])
def test_the_language_a_browser_asks_for(header: str | None, lang: str | None) -> None:
    assert browser_lang(header) == lang


async def closed_bar(page: Page) -> str:
    for _ in range(200):
        if await page.evaluate("document.body.classList.contains('-closed')"):
            break
        await asyncio.sleep(0.1)
    return str(await page.evaluate("document.getElementById('closed').innerText"))


async def test_an_english_browser_plays_in_english_on_a_chinese_host(web_host: Host) -> None:
    """The host's locale is Chinese (the fixture's); a browser asking for English gets English
    from the name prompt on, one asking for Chinese gets Chinese (main: the host's language)."""
    need_chromium()
    english, chinese = Chromium(1000, 700, lang="en-GB,en"), Chromium(1000, 700)
    try:
        page = await english.new_page()
        await page.open(web_host.url)
        await page.wait_for("your name", 60)
        await page.type_text("Ann")
        await page.key("Enter")
        lobby = await page.wait_for("Ann (you)", 40)
        assert "Players: 4" in lobby and "人数" not in lobby, lobby
        other = await chinese.new_page()
        await other.open(web_host.url)
        await other.wait_for("你的名字", 60)
    finally:
        await english.close()
        await chinese.close()


async def test_a_reloaded_tab_takes_its_seat_back_with_enter_alone(web_host: Host) -> None:
    """The name prompt of a reloaded tab starts with the name this browser sat under (main: an
    empty field, the name typed again); leaving says so, and so does the host closing the table."""
    need_chromium()
    browser = Chromium(1000, 700, lang="zh-CN,zh")
    try:
        page = await browser.new_page()
        await page.open(web_host.url)
        await page.wait_for("你的名字", 60)
        await page.type_text("小红")
        await page.key("Enter")
        await page.wait_for("小红（你）", 40)
        for key in ("b", "b", "b"):
            await page.key(key)
            await asyncio.sleep(0.3)
        await page.wait_for("机器人3")
        await page.key("s")
        await page.wait_for("第1回合", 40)
        seat = int(web_host.wait_log(r"小红 took seat (\d)").group(1))
        await page.call("Page.reload")
        prompt = await page.wait_for("入座", 60)  # the prompt's hint (a filled field has no placeholder)
        assert "小红" in prompt, prompt
        await page.key("Enter")
        web_host.wait_log(rf"小红 (reconnected to|took over) seat {seat}")
        await page.wait_for("小红（你）", 40)
        await page.key("q")
        await page.wait_for("确定退出吗", 10)
        await page.key("y")
        assert "You left the table" in await closed_bar(page)
        await page.key("Enter")  # the bar's Enter: a fresh session, the name prompt again
        await page.wait_for("入座", 60)
        await page.key("Enter")
        await page.wait_for("小红（你）", 40)
        os.killpg(web_host.proc.pid, signal.SIGINT)  # the host's Ctrl+C
        assert "The host closed the table" in await closed_bar(page)
    finally:
        await browser.close()
