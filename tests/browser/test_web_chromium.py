"""Headless Chromium against `fengsheng host --web` on loopback, driven over the DevTools protocol.

What a guest does, with the keyboard only: open the address, type a name (Chinese, as an input
method commits it), sit down, and play. The screen is read from the page's own terminal.
"""

from __future__ import annotations

import asyncio
import re
from urllib.parse import urlsplit

from .cdp import Chromium, Page
from .conftest import Host, need_chromium

#: A prompt of ours is on screen: the footer offers to pass or confirm.
OUR_PROMPT = re.compile(r"空格 ?放弃|回车 ?确认")


async def sit_down(page: Page, url: str, name: str) -> str:
    await page.open(url)
    await page.wait_for("你的名字", 60)
    await page.type_text(name)
    await page.key("Enter")
    return await page.wait_for(f"{name}（你）", 40)


async def platform_fonts(page: Page, selector: str) -> dict[str, int]:
    """The fonts the browser drew a node's text with: family -> glyphs drawn (DevTools' CSS domain)."""
    await page.call("DOM.enable")
    await page.call("CSS.enable")
    root = await page.call("DOM.getDocument")
    node = await page.call("DOM.querySelector", nodeId=root["root"]["nodeId"], selector=selector)
    found = await page.call("CSS.getPlatformFontsForNode", nodeId=node["nodeId"])
    return {font["familyName"]: font["glyphCount"] for font in found["fonts"]}


async def make_a_choice(pages: dict[int, Page], host: Host, timeout: float = 90.0) -> tuple[int, str]:
    """Answer prompts from the keyboard in every tab (pass, else the first card, else confirm)
    until the server took a choice from one of these seats: (seat, option)."""
    chose = re.compile(rf"seat ({'|'.join(map(str, pages))}) chose (\S+)")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    keys = [("Space",), ("1", "Enter"), ("Enter",)]
    attempt = 0
    while loop.time() < deadline:
        found = chose.search(host.log())
        if found:
            return int(found.group(1)), found.group(2)
        for page in pages.values():
            if OUR_PROMPT.search(await page.screen()):
                for key in keys[attempt % len(keys)]:
                    await page.key(key)
        attempt += 1
        await asyncio.sleep(0.7)
    raise AssertionError(f"no guest made a choice:\n{host.log()}")


async def test_two_browser_guests_play_a_game(web_host: Host) -> None:
    need_chromium()
    browser = Chromium(1100, 750)
    try:
        first, second = await browser.new_page(), await browser.new_page()
        await sit_down(first, web_host.url, "小明")
        lobby = await sit_down(second, web_host.url, "Lily")
        assert "小明" in lobby, lobby
        await first.wait_for("Lily")
        assert "房主" in await first.screen()  # the first guest holds the host rights
        for _ in range(2):
            await first.key("b")
            await asyncio.sleep(0.3)
        await first.wait_for("机器人2")
        await first.key("s")
        for page in (first, second):
            screen = await page.wait_for("第1回合", 40)
            assert "手牌" in screen
        seats = {int(web_host.wait_log(rf"{name} took seat (\d)").group(1)): page
                 for name, page in (("小明", first), ("Lily", second))}
        await make_a_choice(seats, web_host)
        seat = next(seat for seat, page in seats.items() if page is second)
        # A reloaded tab is a dropped seat; in the same browser the prompt holds the name it sat
        # under, and Enter takes the seat back.
        await second.call("Page.reload")
        assert "Lily" in await second.wait_for("入座", 60)
        await second.key("Enter")
        web_host.wait_log(rf"Lily (reconnected to|took over) seat {seat}")
        screen = await second.wait_for("Lily（你）")
        assert "手牌" in screen
        # Every byte both tabs loaded came from the door itself.
        origin = urlsplit(web_host.url).netloc
        for page in (first, second):
            loaded = [url for url in page.requested if not url.startswith(("data:", "about:"))]
            assert loaded and all(urlsplit(url).netloc == origin for url in loaded), loaded
        # Chinese has fonts to fall back on whatever the guest's system (WenQuanYi is Debian's),
        # and here the browser really draws 风声 with a CJK font (no boxes): Roboto Mono for Latin.
        fonts = await first.evaluate("window.fengshengTerminal.options.fontFamily")
        assert "WenQuanYi Zen Hei" in fonts and "Microsoft YaHei" in fonts and "PingFang SC" in fonts
        used = await platform_fonts(first, ".font-warm")
        assert any("WenQuanYi" in family for family in used) and "Roboto Mono" in used, used
    finally:
        await browser.close()
    # The tabs are gone: the door ends their clients.
    web_host.wait_log(r"guest from \S+ left \(0 now\)")
    assert not web_host.guest_pids()
