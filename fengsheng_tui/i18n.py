"""Every word the terminal game shows, in Chinese (the default) and English.

The engine speaks in its own vocabulary (card functions as printed in Chinese, colours and
identities as English ids); this module turns that vocabulary and the event log into sentences.
It imports nothing from Textual, so it is cheap and testable on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LANGS = ("zh", "en")

FUNCTION_EN = {
    "锁定": "Lock",
    "调虎离山": "Lure Away",
    "截获": "Intercept",
    "退回": "Send Back",
    "破译": "Decrypt",
    "烧毁": "Burn",
    "识破": "See Through",
    "试探": "Probe",
    "真伪莫辨": "Truth or False",
    "转移": "Transfer",
    "调包": "Switch",
    "增援": "Reinforce",
    "博弈": "Gamble",
    "权衡": "Weigh",
}
METHOD_EN = {"密电": "Secret", "直达": "Direct", "文本": "Text"}
COLOUR = {
    "zh": {"red": "红", "blue": "蓝", "black": "黑"},
    "en": {"red": "R", "blue": "B", "black": "Bk"},
}
COLOUR_WORD = {
    "zh": {"red": "红", "blue": "蓝", "black": "黑"},
    "en": {"red": "red", "blue": "blue", "black": "black"},
}
IDENTITY = {
    "zh": {"military": "军情处", "latent": "潜伏战线", "neutral": "打酱油的", None: "？"},
    "en": {"military": "Military", "latent": "Latent", "neutral": "Neutral", None: "?"},
}
#: A 试探's identity in the short tag on the card (`试探[红·密电](潜伏?摸)`).
IDENTITY_SHORT = {
    "zh": {"military": "军情", "latent": "潜伏", "neutral": "酱油"},
    "en": {"military": "Mil", "latent": "Lat", "neutral": "Neu"},
}
#: Kinds whose card is a secret part: `：card` for the seats that see it, nothing for the rest.
COLON_CARD = frozenset({
    "sent", "probe_discarded", "decrypted", "card_given", "card_seen", "hand_card_taken", "message_inspected",
    "discarded", "put_back", "put_on_pile", "returned_to_pile", "message_swapped", "probe_read",
})
SEAT_KEYS = ("seat", "by", "origin", "to", "source", "user")
#: The passive skill that lets a character play a card as another function (engine module = character id).
AS_FUNCTION_SKILL = {"daofeng": "亮剑", "beileimao": "换日", "zhiyeshashou": "预谋"}
#: Key names as the footer and help show them; a language without an entry keeps the English name.
KEY_NAMES = {"zh": {"space": "空格"}, "en": {}}
PROBE_LINE_EN = {"其实我是卧底": "Actually, I am a mole.", "我是一个好人": "I am a good person."}

PHASE = {
    "zh": {
        "turn_start": "回合开始", "draw": "摸牌", "play": "出牌阶段", "send": "传出情报",
        "transmit": "情报传递", "arrive": "情报到达", "receive": "接收情报", "probe": "试探",
        "turn_end": "回合结束", "game_over": "游戏结束",
        "character_pick": "选择角色",
    },
    "en": {
        "turn_start": "turn start", "draw": "draw", "play": "play phase", "send": "send a message",
        "transmit": "transmit", "arrive": "arrival", "receive": "receive or not", "probe": "probe",
        "turn_end": "turn end", "game_over": "game over",
        "character_pick": "character pick",
    },
}

UI: dict[str, dict[str, str]] = {
    "zh": {
        "title": "风声",
        "you": "你",
        "hand": "手牌",
        "identity": "身份",
        "seats": "座位",
        "message": "情报",
        "no_message": "没有传递中的情报",
        "stack": "结算区",
        "stack_empty": "（空）",
        "log": "记录",
        "chat": "聊天",
        "result_key": "结果",
        "prompt": "操作",
        "waiting_for": "等待 {who}",
        "nothing_to_do": "请稍候……",
        "alive": "存活",
        "dead": "死亡",
        "lost": "出局",
        "offline": "离线",
        "standin": "离线·机器人代打",
        "locked": "锁",
        "skipped": "离",
        "turn": "第{n}回合",
        "cards": "{n}张",
        "face_down": "背面",
        "from_to": "{sender}传出 · 在{pos} · {dir}",
        "direction_left": "向左传（顺时针）",
        "direction_right": "向右传（逆时针）",
        "direction_target": "直达{target}",
        "returning": "退回给传出者",
        "intercepted": "被{who}截获",
        "on": "对",
        "replaced": "换下",
        "by": "{who}使用",
        "k_play": "出牌阶段：数字选牌，回车使用，空格结束出牌",
        "k_send": "传出情报：数字选一张牌，回车传出",
        "k_response": "响应：数字选牌，回车使用，空格放弃",
        "k_receive": "情报到你面前：回车接收，空格不接收",
        "k_probe_discard": "试探：数字选一张要弃的牌，回车确认",
        "k_targets": "方向键或 {letters} 选目标，回车确认，Esc 返回",
        "k_confirm": "回车确认，Esc 返回",
        "auto_passing": "无牌可出——即将自动放弃…",
        "keys_resume": "上一个提示已自动放弃：回车和空格稍后恢复",
        "k_targets_page": "第{first}–{last}项，共{n}项 · ←→ 翻到更多 · {letters} 选本页 · 回车确认",
        "cannot_use": "{card} 现在不能使用",
        "no_card": "没有第{n}张牌",
        "accept": "接收",
        "decline": "不接收",
        "pass": "放弃",
        "end": "结束出牌",
        "send": "传出",
        "play": "使用",
        "discard": "弃置",
        "no_target": "无目标",
        "message_card": "情报",
        "game_over": "游戏结束",
        "winners": "胜者",
        "no_winner": "无人获胜",
        "reveal": "身份揭晓",
        "replay_saved": "录像已保存：{path}",
        "replay_unsaved": "录像由服务器保存",
        "win_faction": "{who}集齐三张{colour}情报，{identity}获胜",
        "win_last_standing": "只剩{who}，获胜",
        "win_nobody_left": "无人存活",
        "win_secret_task": "{who}完成秘密任务，获胜",
        "back": "返回",
        "confirm": "确认",
        "help": "帮助",
        "quit": "退出",
        "quit_q": "确定退出吗？（y 退出 / n 取消）",
        "yes": "是",
        "no": "否",
        "settings": "设置",
        "card_key": "选牌",
        "target_key": "目标",
        "pass_key": "放弃",
        "next": "下一步",
        "prev": "上一步",
        "lost_conn": "连接中断，正在重连……",
        "reconnected": "已重新连接",
        "error": "错误：{message}",
        "join_refused": "无法加入：{reason}",
        "join_refused_playing": "无法加入：这张桌正在游戏中。在你玩过的终端里用同一名字再次加入即可回到你的座位，"
                                "或以观战者身份观看（--spectate）。",
        "chat_placeholder": "输入聊天内容，回车发送，Esc 取消",
        "lobby": "局域网游戏",
        "lobby_hint": "↑↓ 选择，回车加入；m 手动输入地址；r 刷新",
        "lobby_empty": "正在搜索局域网中的游戏……",
        "recent": "最近的服务器",
        "address": "地址（主机:端口）",
        "table_lobby": "牌桌",
        "ready": "准备",
        "not_ready": "未准备",
        "empty_seat": "空位",
        "bot": "机器人",
        "host_options": "房主选项",
        "host_seat": "房主",
        "table_options": "牌桌设置",
        "players": "人数",
        "identities": "身份配置",
        "deck": "牌堆",
        "characters": "角色",
        "character_choices": "每人可选角色数",
        "timers": "计时",
        "bots": "机器人",
        "password": "密码",
        "start": "开始",
        "toggle_ready": "准备/取消",
        "add_bot": "加机器人",
        "remove_bot": "减机器人",
        "on_": "开",
        "off": "关",
        "characters_coming": "角色即将推出",
        "language": "语言",
        "colour_mode": "颜色模式",
        "key_bindings": "按键",
        "keys_file": "按键可在 {path} 中修改",
        "replay": "录像",
        "replay_hint": "←→ 逐步播放，Home/End 到开头/结尾，q 退出",
        "step": "第 {i}/{n} 步",
        "rules_summary": "规则摘要",
        "card_reference": "卡牌",
        "spectator": "观战",
        "next_game": "下一局",
        "next_game_host": "按 s 与在座各位开始下一局（空位由机器人补上）。",
        "next_game_guest": "房主可以开始下一局；离开后重新加入也会让本桌回到大厅。",
        "spectator_hand": "观战中：手牌与未翻开的身份对你保持隐藏",
        "countdown": "{s}秒",
        "k_character_pick": "选择角色：数字选一个角色，回车确认",
        "k_skill": "技能【{skill}】：字母或方向键选择，回车确认，空格放弃",
        "k_skill_plain": "技能：字母或方向键选择，回车确认，空格放弃",
        "k_skills_hint": "u 发动技能：{skills}",
        "k_list": "字母或方向键选择，回车确认",
        "skill_key": "技能",
        "no_skill": "现在没有可发动的技能",
        "character": "角色",
        "skills": "技能",
        "task": "秘密任务",
        "task_if_neutral": "秘密任务（打酱油的才有）",
        "face_down_marker": "盖",
        "face_down_character": "盖伏的角色",
        "hidden_character": "开局盖伏",
        "open_character": "开局翻开",
        "flip_skill": "翻面技能",
        "pick_title": "选择你的角色",
        "pick_hint": "数字选择，回车确认；? 帮助",
        "picked_wait": "已选择{name}，等待其他玩家选择……",
        "character_reference": "角色（基础版 {n} 名）",
        "as_function": "当作{function}",
        "cancel_item": "识破{seat}的【{function}】",
        "use": "发动",
        "skill": "技能",
        "pick": "选择",
        "answer_yes": "是",
        "answer_no": "否",
        "give": "交给",
        "place": "放置",
        "put_back": "放回",
        "take": "拿取",
        "refresh": "刷新",
        "log_older": "记录上翻",
        "log_newer": "记录下翻",
        "log_newest": "最新记录",
        "auto_pass_key": "自动放弃",
        "replay_start": "到开头",
        "replay_end": "到结尾",
        "card_keys_help": "选一张手牌（第1–9张）",
        "hand_star": "* 现在可用",
        "hand_star_help": "手牌后的 * 表示这张牌现在可以使用；技能后的 * 表示技能现在可以发动（按 u）",
        "too_small": "终端太小：至少需要 80×24（现在 {w}×{h}）",
        "more_entries": "…还有{n}项",
        "auto_pass": "无牌可出时自动放弃响应（随机等待片刻，别人看不出你的手牌）",
        "auto_pass_help": "自动放弃：响应窗口里没有能出的牌时，随机等 0.6–1.8 秒后自动放弃（可在设置中用 a 关闭）",
        "log_scroll_help": "PageUp/PageDown 翻看记录，End 回到最新",
        "log_scrolled": "记录（已向上翻 {n} 行，End 回到最新）",
        "colour_on": "彩色",
        "colour_off": "单色",
        "lobby_none": "还没有找到游戏——按 m 输入地址",
        "wrong_key": "这个键没有作用；按 ? 查看按键",
        "host_hint": "房主：s 开始，b/x 加减机器人，+/- 人数，i 身份，h 角色，k 牌堆",
        "players_range": "人数只能是{lo}–{hi}人",
        "seats_taken": "已有{n}个座位有人：先减机器人",
        "players_need_characters": "{n}人局需要角色（有打酱油的）：先按 h 打开角色",
        "only_lineup": "{n}人{mode}：只有{lineup}",
        "with_characters": "用角色",
        "without_characters": "不用角色",
        "you_passed_waiting": "你已放弃——等待其他人（{who}）",
        "abbreviations": "屏幕上的缩写",
        "guest_hint": "等待房主开始；r 准备（所有人准备好且坐满即开始）",
        "your_identity": "你的身份",
        "identities_counts": "{name}（军情处{m} 潜伏战线{l} 打酱油的{n}）",
        "seconds": "{s}秒",
        "replay_saved_at": "录像已保存：",
        "probe_says": "问{identity}：是则{yes}，否则说“{line}”",
        "probe_yes_draw": "摸牌",
        "probe_yes_discard": "弃一张牌",
        "probe_tag": "{identity}?{yes}",
        "probe_tag_draw": "摸",
        "probe_tag_discard": "弃",
    },
    "en": {
        "title": "The Message",
        "you": "you",
        "hand": "Hand",
        "identity": "Identity",
        "seats": "Seats",
        "message": "Message",
        "no_message": "No message in transit",
        "stack": "Stack",
        "stack_empty": "(empty)",
        "log": "Log",
        "chat": "Chat",
        "result_key": "result",
        "prompt": "Action",
        "waiting_for": "waiting for {who}",
        "nothing_to_do": "Please wait...",
        "alive": "alive",
        "dead": "dead",
        "lost": "lost",
        "offline": "offline",
        "standin": "offline·bot plays",
        "locked": "L",
        "skipped": "S",
        "turn": "Turn {n}",
        "cards": "{n}c",
        "face_down": "face down",
        "from_to": "sent by {sender} · at {pos} · {dir}",
        "direction_left": "passing left (clockwise)",
        "direction_right": "passing right (counter-clockwise)",
        "direction_target": "direct to {target}",
        "returning": "back to sender",
        "intercepted": "intercepted by {who}",
        "on": "on",
        "replaced": "replacing",
        "by": "by {who}",
        "k_play": "Play phase: digit picks a card, Enter uses it, Space ends the phase",
        "k_send": "Send a message: digit picks a card, Enter sends it",
        "k_response": "Respond: digit picks a card, Enter uses it, Space passes",
        "k_receive": "The message is in front of you: Enter accepts, Space declines",
        "k_probe_discard": "Probe: digit picks the card to discard, Enter confirms",
        "k_targets": "Arrows or {letters} pick a target, Enter confirms, Esc backs out",
        "k_confirm": "Enter confirms, Esc backs out",
        "auto_passing": "Nothing playable — passing by itself…",
        "keys_resume": "The last prompt passed by itself: Enter and Space resume in a moment",
        "k_targets_page": "{first}–{last} of {n} · ←→ for more · {letters} pick here · Enter confirms",
        "cannot_use": "{card} cannot be used now",
        "no_card": "There is no card {n}",
        "accept": "accept",
        "decline": "decline",
        "pass": "pass",
        "end": "end play",
        "send": "send",
        "play": "use",
        "discard": "discard",
        "no_target": "no target",
        "message_card": "the message",
        "game_over": "Game over",
        "winners": "Winners",
        "no_winner": "Nobody wins",
        "reveal": "Identities",
        "replay_saved": "Replay saved: {path}",
        "replay_unsaved": "The server keeps the replay",
        "win_faction": "{who} collected three {colour} messages: {identity} win",
        "win_last_standing": "{who} is the last one standing",
        "win_nobody_left": "Nobody is left",
        "win_secret_task": "{who} wins with the secret task",
        "back": "back",
        "confirm": "confirm",
        "help": "help",
        "quit": "quit",
        "quit_q": "Quit the game? (y quit / n stay)",
        "yes": "yes",
        "no": "no",
        "settings": "Settings",
        "card_key": "card",
        "target_key": "target",
        "pass_key": "pass",
        "next": "next",
        "prev": "previous",
        "lost_conn": "Connection lost, reconnecting...",
        "reconnected": "Reconnected",
        "error": "Error: {message}",
        "join_refused": "Cannot join: {reason}",
        "join_refused_playing": "Cannot join: this table is playing a game. Join again from the terminal you played "
                                "in, under the same name, to take your seat back, or watch as a spectator (--spectate).",
        "chat_placeholder": "Type a chat line, Enter sends, Esc cancels",
        "lobby": "LAN games",
        "lobby_hint": "Up/Down select, Enter joins; m types an address; r refreshes",
        "lobby_empty": "Looking for games on the LAN...",
        "recent": "Recent servers",
        "address": "Address (host:port)",
        "table_lobby": "Table",
        "ready": "ready",
        "not_ready": "not ready",
        "empty_seat": "empty",
        "bot": "bot",
        "host_options": "Host options",
        "host_seat": "host",
        "table_options": "Table settings",
        "players": "Players",
        "identities": "Identities",
        "deck": "Deck",
        "characters": "Characters",
        "character_choices": "Characters to pick from",
        "timers": "Timers",
        "bots": "Bots",
        "password": "Password",
        "start": "start",
        "toggle_ready": "ready/unready",
        "add_bot": "add bot",
        "remove_bot": "remove bot",
        "on_": "on",
        "off": "off",
        "characters_coming": "Characters are coming",
        "language": "Language",
        "colour_mode": "Colour mode",
        "key_bindings": "Key bindings",
        "keys_file": "Remap keys in {path}",
        "replay": "Replay",
        "replay_hint": "Left/Right step, Home/End jump, q quits",
        "step": "step {i}/{n}",
        "rules_summary": "Rules summary",
        "card_reference": "Cards",
        "spectator": "spectating",
        "next_game": "next game",
        "next_game_host": "Press s to start the next game with everyone here (bots fill empty seats).",
        "next_game_guest": "The host can start the next game; leaving and joining again also gathers the table.",
        "spectator_hand": "Spectating: hands and unrevealed identities stay hidden from you",
        "countdown": "{s}s",
        "k_character_pick": "Pick a character: a digit chooses, Enter confirms",
        "k_skill": "Skill {skill}: letters or arrows choose, Enter confirms, Space declines",
        "k_skill_plain": "Skill: letters or arrows choose, Enter confirms, Space declines",
        "k_skills_hint": "u uses a skill: {skills}",
        "k_list": "Letters or arrows choose, Enter confirms",
        "skill_key": "skill",
        "no_skill": "No skill can be used now",
        "character": "Character",
        "skills": "Skills",
        "task": "Secret task",
        "task_if_neutral": "Secret task (for a Neutral only)",
        "face_down_marker": "down",
        "face_down_character": "face-down character",
        "hidden_character": "starts face down",
        "open_character": "starts face up",
        "flip_skill": "flip skill",
        "pick_title": "Pick your character",
        "pick_hint": "A digit chooses, Enter confirms; ? help",
        "picked_wait": "You picked {name}; waiting for the others...",
        "character_reference": "Characters (base set, {n})",
        "as_function": "as {function}",
        "cancel_item": "cancel {seat}'s {function}",
        "use": "use",
        "skill": "skill",
        "pick": "pick",
        "answer_yes": "yes",
        "answer_no": "no",
        "give": "give",
        "place": "place",
        "put_back": "put back",
        "take": "take",
        "refresh": "refresh",
        "log_older": "log back",
        "log_newer": "log forward",
        "log_newest": "newest log line",
        "auto_pass_key": "auto-pass",
        "replay_start": "to the start",
        "replay_end": "to the end",
        "card_keys_help": "pick a hand card (1st to 9th)",
        "hand_star": "* playable now",
        "hand_star_help": "A * after a hand card: it can be played now; after a skill: it can be used now (u)",
        "too_small": "Terminal too small: need 80×24 (now {w}×{h})",
        "more_entries": "… {n} more",
        "auto_pass": "Auto-pass response windows when I have nothing playable (after a random pause)",
        "auto_pass_help": "Auto-pass: with nothing playable in a response window you pass after a random "
                          "0.6–1.8 s, so nobody can read your hand from the timing (a in Settings turns it off)",
        "log_scroll_help": "PageUp/PageDown scroll the log, End returns to the newest line",
        "log_scrolled": "Log (scrolled up {n} lines, End for the newest)",
        "colour_on": "colour",
        "colour_off": "mono",
        "lobby_none": "No games found yet - press m to enter an address",
        "wrong_key": "That key does nothing here; ? shows the keys",
        "host_hint": "Host: s starts, b/x add/remove a bot, +/- players, i identities, h characters, k deck",
        "players_range": "Players: {lo} to {hi} only",
        "seats_taken": "{n} seats are taken: remove a bot first",
        "players_need_characters": "{n} players need characters (a Neutral is dealt): h turns them on first",
        "only_lineup": "{n} players {mode}: only {lineup}",
        "with_characters": "with characters",
        "without_characters": "without characters",
        "you_passed_waiting": "You passed — waiting for the others ({who})",
        "abbreviations": "Abbreviations on screen",
        "guest_hint": "Waiting for the host to start; r ready (a full table that is all ready starts)",
        "your_identity": "Your identity",
        "identities_counts": "{name} (Military {m}, Latent {l}, Neutral {n})",
        "seconds": "{s}s",
        "replay_saved_at": "Replay saved:",
        "probe_says": "asks about {identity}: yes → {yes}, no → says \"{line}\"",
        "probe_yes_draw": "draw cards",
        "probe_yes_discard": "discard a card",
        "probe_tag": "{identity}?{yes}",
        "probe_tag_draw": "draw",
        "probe_tag_discard": "disc",
    },
}

EVENTS: dict[str, dict[str, str]] = {
    "zh": {
        "dealt": "{seat}获得{count}张起始手牌{cards}",
        "identity": "你的身份：{identity}",
        "first_player": "{seat}先手",
        "turn_start": "—— 第{turn}回合：{seat} ——",
        "new_game": "════ 新的一局 ════",
        "timed_out": "时间到：已替你选了默认选项",
        "drew": "{seat}摸了{count}张牌{cards}",
        "drew_one": "{seat}摸了1张牌{cards}",
        "cards_taken_one": "{seat}从{source}手中拿走1张牌{cards}",
        "hand_given_one": "{seat}把1张手牌交给{to}",
        "weighed_one": "{seat}权衡：弃掉1张手牌{cards}，再摸1张",
        "play_phase_ended": "{seat}结束出牌",
        "cannot_send": "{seat}没有手牌可以传出",
        "sent": "{seat}传出{method}情报{target}{card}",
        "message_discarded": "传出者{seat}已离场，情报被弃置",
        "transmit": "情报从{origin}传向{to}",
        "arrived": "情报到达{seat}面前",
        "declined": "{seat}不接收",
        "played": "{seat}使用{card}{target}{target_card}",
        "no_effect": "{seat}的{card}被识破，无效",
        "resolved": "{seat}的{card}生效",
        "probe_discarded": "{seat}弃置一张牌{card}",
        "reshuffled": "弃牌堆洗入牌堆（{count}张）",
        "received": "{seat}接收情报：{card}",
        "obtained": "{seat}面前多了一张情报：{card}",
        "died": "{seat}收到三张黑情报，死亡（{identity}）",
        "lost": "{seat}无牌可传，出局（{identity}）",
        "game_over": "游戏结束",
        "game_over_faction": "游戏结束：{identity}获胜（{who}集齐三张{colour}情报）",
        "game_over_last_standing": "游戏结束：只剩{who}，获胜",
        "game_over_nobody_left": "游戏结束：无人存活",
        "game_over_secret_task": "游戏结束：{who}完成秘密任务，获胜",
        "locked": "{by}锁定了{seat}",
        "truth_or_false": "真伪莫辨：翻开{count}张牌",
        "intercepted": "{seat}截获了情报",
        "lured": "{by}对{seat}使用调虎离山",
        "decrypted": "{seat}破译了情报{card}",
        "sent_back": "{seat}退回了情报",
        "burned": "{by}烧毁了{seat}面前的{card}",
        "cancelled": "{by}识破了{card}",
        "probe_answer_say": "{seat}说：“{line}”",
        "probe_answer_draw": "{seat}按试探摸牌",
        "probe_answer_discard": "{seat}按试探弃一张牌",
        "probe_answer_discard_none": "{seat}没有手牌可弃",
        "probe_concealed": "{seat}隐瞒了试探的回答{answer}",
        "saved": "{seat}脱离了濒死",
        "character": "{seat}的角色：{character}",
        "character_face_down": "{seat}的角色盖伏",
        "character_choices": "{seat}收到{count}个可选角色",
        "character_choices_own": "你可选的角色：{characters}",
        "character_picked": "{seat}选好了角色",
        "character_picked_own": "你选择了{character}",
        "character_flipped": "{seat}翻开了角色：{character}",
        "character_covered": "{seat}盖伏了角色",
        "skill_used": "{seat}发动【{skill}】{target}",
        "task_completed": "{seat}（{character}）完成了秘密任务",
        "hand_given": "{seat}把{count}张手牌交给{to}",
        "played_as": "{seat}{skill}把{card}当作{function}使用{target}{target_card}",
        "skill_as_card": "{seat}发动【{skill}】（当作{function}）{target}{target_card}",
        "skill_as_itself": "{seat}发动【{skill}】{target}{target_card}",
        "no_effect_skill": "{seat}的【{skill}】无效",
        "intercepted_skill": "{seat}发动【{skill}】截获了情报",
        "card_given": "{seat}交给{to}一张手牌{card}",
        "card_seen": "{seat}查看了{source}的一张手牌{card}",
        "cards_taken": "{seat}从{source}手中拿走{count}张牌{cards}",
        "co_winner": "{by}指定{seat}与他一同获胜",
        "declaration_void": "{by}令{seat}的胜利宣言无效",
        "discarded": "{seat}弃置了一张牌{card}",
        "hand_card_taken": "{seat}拿走了{source}的一张手牌{card}",
        "hand_seen": "{seat}查看了{source}的手牌{cards}",
        "identity_revealed": "{seat}的身份被揭示：{identity}",
        "identity_shown": "{seat}亮明身份：{identity}",
        "identity_taken": "{seat}查看了{source}的身份{identity}",
        "message_inspected": "{seat}查看了传递中的情报{card}",
        "message_revealed": "{seat}翻开了传递中的情报：{card}",
        "message_swapped": "{seat}用牌堆顶的牌换下了传递中的情报{card}",
        "transferred": "{seat}用转移把情报交给{to}，他必须接收",
        "switched": "{seat}调包：{card}成为传递中的情报{old}",
        "gambled": "{seat}博弈：牌堆顶的牌成为{to}面前的情报",
        "weighed": "{seat}权衡：弃掉{count}张手牌{cards}，再摸同样多",
        "message_swapped_by": "{by}把{seat}面前的情报{card}放回牌堆顶，换成牌堆顶的牌",
        "message_taken": "{seat}拿走了{source}面前的情报：{card}",
        "message_taken_by": "{by}拿走了{seat}面前的情报：{card}",
        "message_to_hand": "{source}面前的情报{card}进入{seat}的手牌",
        "message_to_pile": "{by}把{seat}面前的情报{card}放回牌堆顶",
        "probe_read": "{seat}看了{user}使用的试探{card}",
        "put_back": "{seat}把一张手牌放回牌堆顶{card}",
        "put_on_pile": "{seat}把一张手牌放到牌堆顶{card}",
        "returned_to_pile": "{seat}把一张手牌放回牌堆{card}",
        "top_card_shown": "{seat}亮出牌堆顶的牌：{card}",
        "probe_detail": "（{probe}）",
        "unknown": "{kind}",
        "unknown_seat": "{seat}：{kind}",
    },
    "en": {
        "dealt": "{seat} got {count} starting cards{cards}",
        "identity": "Your identity: {identity}",
        "first_player": "{seat} goes first",
        "turn_start": "-- Turn {turn}: {seat} --",
        "new_game": "==== A new game ====",
        "timed_out": "Time ran out: the default was chosen for you",
        "drew": "{seat} drew {count} cards{cards}",
        "drew_one": "{seat} drew 1 card{cards}",
        "cards_taken_one": "{seat} takes 1 card from {source}'s hand{cards}",
        "hand_given_one": "{seat} hands 1 card to {to}",
        "weighed_one": "{seat} weighs: discards 1 hand card{cards} and draws 1",
        "play_phase_ended": "{seat} ends the play phase",
        "cannot_send": "{seat} has no card to send",
        "sent": "{seat} sends a {method} message{target}{card}",
        "message_discarded": "the sender {seat} is out; the message is discarded",
        "transmit": "the message moves from {origin} to {to}",
        "arrived": "the message arrives at {seat}",
        "declined": "{seat} declines",
        "played": "{seat} uses {card}{target}{target_card}",
        "no_effect": "{seat}'s {card} is seen through: no effect",
        "resolved": "{seat}'s {card} takes effect",
        "probe_discarded": "{seat} discards a card{card}",
        "reshuffled": "the discard pile is shuffled into the deck ({count} cards)",
        "received": "{seat} receives the message: {card}",
        "obtained": "{seat} gets a message: {card}",
        "died": "{seat} has three black messages and dies ({identity})",
        "lost": "{seat} had nothing to send and is out ({identity})",
        "game_over": "Game over",
        "game_over_faction": "Game over — {identity} wins: {who} has three {colour} messages",
        "game_over_last_standing": "Game over — {who} wins, the last one standing",
        "game_over_nobody_left": "Game over — nobody is left",
        "game_over_secret_task": "Game over — {who} wins with the secret task",
        "locked": "{by} locks {seat}",
        "truth_or_false": "Truth or False: {count} cards revealed",
        "intercepted": "{seat} intercepts the message",
        "lured": "{by} lures {seat} away",
        "decrypted": "{seat} decrypts the message{card}",
        "sent_back": "{seat} sends the message back",
        "burned": "{by} burns {card} in front of {seat}",
        "cancelled": "{by} sees through {card}",
        "probe_answer_say": "{seat} says: \"{line}\"",
        "probe_answer_draw": "{seat} draws cards for the probe",
        "probe_answer_discard": "{seat} must discard a card for the probe",
        "probe_answer_discard_none": "{seat} has no card to discard",
        "probe_concealed": "{seat} conceals the probe's answer{answer}",
        "saved": "{seat} is saved from dying",
        "character": "{seat}'s character: {character}",
        "character_face_down": "{seat}'s character is face down",
        "character_choices": "{seat} is offered {count} characters",
        "character_choices_own": "Your characters to pick from: {characters}",
        "character_picked": "{seat} picked a character",
        "character_picked_own": "You picked {character}",
        "character_flipped": "{seat} reveals the character {character}",
        "character_covered": "{seat} turns the character face down",
        "skill_used": "{seat} uses {skill}{target}",
        "task_completed": "{seat} ({character}) completed the secret task",
        "hand_given": "{seat} hands {count} cards to {to}",
        "played_as": "{seat}{skill} plays {card} as {function}{target}{target_card}",
        "skill_as_card": "{seat} uses {skill} (as {function}){target}{target_card}",
        "skill_as_itself": "{seat} uses {skill}{target}{target_card}",
        "no_effect_skill": "{seat}'s {skill} has no effect",
        "intercepted_skill": "{seat} uses {skill} to intercept the message",
        "card_given": "{seat} gives {to} a hand card{card}",
        "card_seen": "{seat} looks at a card in {source}'s hand{card}",
        "cards_taken": "{seat} takes {count} cards from {source}'s hand{cards}",
        "co_winner": "{by} makes {seat} win with him",
        "declaration_void": "{by} voids {seat}'s declaration of victory",
        "discarded": "{seat} discards a card{card}",
        "hand_card_taken": "{seat} takes a card from {source}'s hand{card}",
        "hand_seen": "{seat} looks at {source}'s hand{cards}",
        "identity_revealed": "{seat}'s identity is revealed: {identity}",
        "identity_shown": "{seat} shows the identity: {identity}",
        "identity_taken": "{seat} looks at {source}'s identity{identity}",
        "message_inspected": "{seat} looks at the message in transit{card}",
        "message_revealed": "{seat} turns the message in transit face up: {card}",
        "message_swapped": "{seat} swaps the message in transit for the top card of the deck{card}",
        "transferred": "{seat} transfers the message to {to}, who must accept it",
        "switched": "{seat} switches: {card} becomes the message in transit{old}",
        "gambled": "{seat} gambles: the top card of the deck becomes a message in front of {to}",
        "weighed": "{seat} weighs: discards {count} hand cards{cards} and draws as many",
        "message_swapped_by": "{by} puts {card} in front of {seat} on the deck and gives him the top card instead",
        "message_taken": "{seat} takes {card} from in front of {source}",
        "message_taken_by": "{by} takes {card} from in front of {seat}",
        "message_to_hand": "{card} in front of {source} goes into {seat}'s hand",
        "message_to_pile": "{by} puts {card} in front of {seat} back on top of the deck",
        "probe_read": "{seat} reads the Probe {user} used{card}",
        "put_back": "{seat} puts a hand card back on top of the deck{card}",
        "put_on_pile": "{seat} puts a hand card on top of the deck{card}",
        "returned_to_pile": "{seat} returns a hand card to the deck{card}",
        "top_card_shown": "{seat} shows the top card of the deck: {card}",
        "probe_detail": " ({probe})",
        "unknown": "{kind}",
        "unknown_seat": "{seat}: {kind}",
    },
}


#: The server's error codes (net.protocol) in words; the server's own message is English.
ERRORS = {
    "zh": {
        "not_host": "只有房主可以这样做", "full": "座位已满", "auth": "密码或座位凭证不对",
        "version": "版本不同，无法加入", "stale_prompt": "这个操作已经过时了", "illegal_option": "现在不能这样选",
        "not_your_seat": "这不是你的操作", "rate_limited": "操作太快了，请稍候", "bad_state": "现在不能这样做",
        "bad_message": "服务器不接受这个请求", "connect": "无法连接服务器",
    },
    "en": {
        "not_host": "Only the host may do that", "full": "The table is full", "auth": "Wrong password or seat token",
        "version": "Another version of the game: cannot join", "stale_prompt": "That choice is out of date",
        "illegal_option": "That choice is not allowed now", "not_your_seat": "That is not your choice",
        "rate_limited": "Too fast: wait a moment", "bad_state": "Not possible now",
        "bad_message": "The server refused the request", "connect": "Cannot reach the server",
    },
}
#: Identity line-ups (engine.config) and deck variants (engine.cards) by name.
LINEUP = {
    "zh": {"default": "标准", "novice": "新手", "3v3": "三对三", "alt": "变体"},
    "en": {"default": "standard", "novice": "novice", "3v3": "3 vs 3", "alt": "variant"},
}
DECK = {
    "zh": {"resolved": "标准牌堆", "fixed_method_by_function": "按功能定传递方式", "seed000_literal": "原始牌表",
           "later": "后期版（转移、调包等）"},
    "en": {"resolved": "standard", "fixed_method_by_function": "method fixed by function",
           "seed000_literal": "literal card list", "later": "later edition (Transfer, Switch, ...)"},
}
TIMER_KIND = {
    "zh": {"play": "出牌", "send": "传出", "response": "响应", "receive": "接收", "probe_discard": "试探弃牌",
           "character_pick": "选角色", "skill": "技能"},
    "en": {"play": "play", "send": "send", "response": "respond", "receive": "receive", "probe_discard": "discard",
           "character_pick": "pick", "skill": "skill"},
}


class Words:
    """The strings of one language, with helpers for the engine's vocabulary."""

    def __init__(self, lang: str = "zh") -> None:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
        self.lang = lang
        self.ui = UI[lang]

    def __call__(self, key: str, **kw: object) -> str:
        text = self.ui.get(key, key)
        return text.format(**kw) if kw else text

    def error(self, code: object, message: object) -> str:
        """A server error in this language: its code in words (English keeps the server's detail)."""
        text = ERRORS[self.lang].get(str(code))
        if text is None or (self.lang == "en" and message and code in ("bad_state", "bad_message")):
            text = str(message or code)
        return self("error", message=text)

    def refusal(self, code: object, message: object) -> str:
        """Why the server would not seat us; English adds the server's own (English) detail.

        A game in progress is said in player terms: the server's detail speaks of a token the
        player never sees."""
        if str(code) == "full" and "game has started" in str(message):
            return self("join_refused_playing")
        reason = ERRORS[self.lang].get(str(code)) or str(message or code)
        if self.lang == "en" and message and str(code) in ERRORS["en"]:
            reason += f" ({str(message).removeprefix(f'{code}: ')})"
        return self("join_refused", reason=reason)

    def lineup(self, name: object, counts: Sequence[int] | None) -> str:
        label = LINEUP[self.lang].get(str(name), str(name))
        if not counts:
            return label
        return self("identities_counts", name=label, m=counts[0], l=counts[1], n=counts[2])

    def key_name(self, key: str) -> str:
        """`Space` is `空格` in Chinese, as the prompt lines say it; other keys keep their names."""
        return KEY_NAMES[self.lang].get(key.lower(), key)

    def deck(self, name: object) -> str:
        return DECK[self.lang].get(str(name), str(name))

    def timers(self, timers: Mapping[str, Any]) -> str:
        """`出牌30秒 传出20秒 ...`."""
        gap = " " if self.lang == "en" else ""
        return " ".join(f"{TIMER_KIND[self.lang].get(k, k)}{gap}{self('seconds', s=f'{v:g}')}"
                        for k, v in timers.items() if isinstance(v, int | float))

    def function(self, name: object) -> str:
        text = str(name)
        return FUNCTION_EN.get(text, text) if self.lang == "en" else text

    def method(self, name: object) -> str:
        text = str(name)
        return METHOD_EN.get(text, text) if self.lang == "en" else text

    def colour(self, colour: object) -> str:
        return COLOUR[self.lang].get(str(colour), "?")

    def colour_word(self, colour: object) -> str:
        return COLOUR_WORD[self.lang].get(str(colour), "?")

    def identity(self, identity: object, short: bool = False) -> str:
        key = identity if identity in ("military", "latent", "neutral") else None
        if short and key is not None:
            return IDENTITY_SHORT[self.lang][key]
        return IDENTITY[self.lang][key]

    def phase(self, phase: object) -> str:
        return PHASE[self.lang].get(str(phase), str(phase))

    def probe_line(self, line: object) -> str:
        text = str(line)
        return PROBE_LINE_EN.get(text, text) if self.lang == "en" else text

    def character_name(self, cid: object) -> str:
        """A character id in this language (the id itself if the data does not know it)."""
        from .character_data import character_info

        info = character_info(cid)
        return info.name(self.lang) if info is not None else str(cid)

    def character(self, ch: Mapping[str, Any] | None) -> str:
        """A seat's character as the view gives it: its name, or the face-down marker."""
        if not ch:
            return ""
        if "id" not in ch:
            return self("face_down_marker")
        name = str(ch.get("name_en") or ch["id"]) if self.lang == "en" else str(ch.get("name") or ch["id"])
        return name if ch.get("face_up", True) else f"{name}({self('face_down_marker')})"

    def gender(self, gender: object, short: bool = False) -> str:
        from .character_data import GENDER, GENDER_SHORT

        return (GENDER_SHORT if short else GENDER)[self.lang].get(str(gender), "") if gender else ""

    def skill(self, name: object) -> str:
        from .character_data import skill_title

        return skill_title(name, self.lang)

    def card(self, face: Mapping[str, Any] | None) -> str:
        """A card as `function[colour·method]`; a face-down card (no colour) as just its function.

        A 试探 whose face we see carries its question: `试探[红·密电](潜伏?摸)`."""
        if not face:
            return self("face_down")
        name = self.function(face.get("function", "?"))
        if face.get("skill") and face.get("function") in (face["skill"], None):
            return self.skill(face["skill"])  # a skill on the stack (先机): its own name, translated
        if "colour" not in face:
            return name
        return f"{name}[{self.colour(face['colour'])}·{self.method(face.get('method', '?'))}]{self.probe_tag(face)}"

    def probe_tag(self, face: Mapping[str, Any] | None) -> str:
        """`(潜伏?摸)`: the identity a 试探 asks about and what a yes does; empty for other cards."""
        probe = face.get("probe") if face else None
        if not isinstance(probe, Mapping):
            return ""
        identity = IDENTITY_SHORT[self.lang].get(str(probe.get("identity")), "?")
        yes = self("probe_tag_draw" if probe.get("on_yes") == "draw" else "probe_tag_discard")
        return f"({self('probe_tag', identity=identity, yes=yes)})"

    def probe_text(self, face: Mapping[str, Any] | None) -> str:
        """The whole question of a 试探: whom it asks about, what yes does, what no says."""
        probe = face.get("probe") if face else None
        if not isinstance(probe, Mapping):
            return ""
        yes = self("probe_yes_draw" if probe.get("on_yes") == "draw" else "probe_yes_discard")
        return self("probe_says", identity=self.identity(probe.get("identity")), yes=yes,
                    line=self.probe_line(probe.get("on_no_say", "")))

    def seat_name(self, seats: Sequence[Mapping[str, Any]], seat: object, me: int | None) -> str:
        if not isinstance(seat, int) or not 0 <= seat < len(seats):
            return "?"
        name = str(seats[seat].get("name", f"P{seat + 1}"))
        return f"{name}({self('you')})" if seat == me else name

    def event(self, ev: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], me: int | None) -> str | None:
        """One event as a sentence; None for events that carry nothing worth a line.

        Secret parts (a card, cards, an identity) are in the event only for the seats that may
        see them, and then the sentence shows them."""
        kind = str(ev.get("kind", ""))
        table = EVENTS[self.lang]
        colon = ": " if self.lang == "en" else "："
        values: dict[str, object] = {k: v for k, v in ev.items() if k not in ("kind", "seq")}
        values["kind"] = kind
        for key in SEAT_KEYS:
            if key in ev:
                values[key] = self.seat_name(seats, ev.get(key), me)
        if kind == "identity" and "identity" not in ev:
            return None
        if kind in ("identity", "died", "lost", "identity_revealed", "identity_shown"):
            values["identity"] = self.identity(ev.get("identity"))
        if kind == "identity_taken":
            values["identity"] = f"{colon}{self.identity(ev['identity'])}" if "identity" in ev else ""
        cards = ev.get("cards")
        values["cards"] = colon + " ".join(self.card(c) for c in cards) if isinstance(cards, list) and cards else ""
        card = ev.get("card")
        card_text = self.card(card) if isinstance(card, dict) else ""
        if kind in COLON_CARD:
            values["card"] = f"{colon}{card_text}" if card_text else ""
            if kind == "probe_read" and card_text:
                values["card"] = f"{colon}{card_text}{table['probe_detail'].format(probe=self.probe_text(card))}"
        else:
            values["card"] = card_text or self("face_down")
        if kind == "switched":
            old = ev.get("old")
            values["old"] = f" ({self('replaced')} {self.card(old)})" if isinstance(old, dict) else ""
        if kind == "probe_concealed":
            answer = ev.get("answer")
            values["answer"] = f"{colon}{self(str(answer))}" if answer in ("answer_yes", "answer_no") else ""
        if kind == "sent":
            values["method"] = self.method(ev.get("method"))
            target = ev.get("target")
            values["target"] = (f" → {self.seat_name(seats, target, me)}") if isinstance(target, int) else ""
        if kind == "played":
            kind = self._played(ev, values, seats, me)
        if kind == "probe_answer":
            kind = f"probe_answer_{ev.get('answer')}"
            values["line"] = self.probe_line(ev.get("line", ""))
        if kind in ("no_effect", "intercepted") and "skill" in ev and "card" not in ev:
            kind = f"{kind}_skill"
        if kind in ("message_swapped", "message_taken") and "by" in ev:
            kind = f"{kind}_by"
            values["card"] = card_text or self("face_down")
        kind = self._character_event(kind, ev, values, seats, me)
        if kind == "game_over":
            kind = self._game_over(ev, values, seats, me)
        if ev.get("count") == 1 and f"{kind}_one" in table:
            kind = f"{kind}_one"  # "drew 1 card", never "1 cards"
        template = table.get(kind)
        if template is None:
            return self._generic(ev, values)
        try:
            text = template.format(**values)
        except (KeyError, IndexError):
            return self._generic(ev, values)
        probe = ev.get("probe")
        if kind.startswith("probe_answer") and isinstance(probe, Mapping):
            text += table["probe_detail"].format(probe=self.probe_text(probe))
        return text

    def _played(self, ev: Mapping[str, Any], values: dict[str, object], seats: Sequence[Mapping[str, Any]],
                me: int | None) -> str:
        """`played`, or how it was played: a skill that counts as a card, a card used as another."""
        target = ev.get("target")
        values["target"] = f" → {self.seat_name(seats, target, me)}" if isinstance(target, int) else ""
        tc = ev.get("target_card")
        values["target_card"] = f" ({self('on')} {self.card(tc)})" if isinstance(tc, dict) else ""
        card = ev.get("card")
        if isinstance(card, dict) and card.get("skill"):
            values["skill"] = self.skill(card["skill"])
            values["function"] = self.function(card.get("function"))
            itself = card.get("function") in (card["skill"], None) or values["function"] == values["skill"]
            return "skill_as_itself" if itself else "skill_as_card"
        if "function" in ev:
            values["function"] = self.function(ev["function"])
            user = ev.get("seat")
            character = seats[user].get("character") if isinstance(user, int) and 0 <= user < len(seats) else None
            skill = AS_FUNCTION_SKILL.get(str(character.get("id"))) if isinstance(character, Mapping) else None
            title = self.skill(skill) if skill else ""
            values["skill"] = (f"【{title}】" if self.lang == "zh" else f" ({title})") if title else ""
            return "played_as"
        return "played"

    def _game_over(self, ev: Mapping[str, Any], values: dict[str, object], seats: Sequence[Mapping[str, Any]],
                   me: int | None) -> str:
        """The end says why: who declared, and for a faction its colour."""
        declarer = ev.get("declarer")
        identities = ev.get("identities")
        identity = identities[declarer] if isinstance(identities, list) and isinstance(declarer, int) \
            and 0 <= declarer < len(identities) else None
        values.update(who=self.seat_name(seats, declarer, me), identity=self.identity(identity),
                      colour=self.colour_word({"military": "blue", "latent": "red"}.get(str(identity))))
        kind = f"game_over_{ev.get('reason')}"
        return kind if kind in EVENTS[self.lang] else "game_over"

    def _character_event(self, kind: str, ev: Mapping[str, Any], values: dict[str, object],
                         seats: Sequence[Mapping[str, Any]], me: int | None) -> str:
        """Character names and skills in this language; the owner's variant of private events."""
        if "character" in ev:
            values["character"] = self.character_name(ev["character"])
        if "skill" in ev:
            values["skill"] = self.skill(ev["skill"])
        if kind == "skill_used":
            target = ev.get("target")
            values["target"] = f" → {self.seat_name(seats, target, me)}" if isinstance(target, int) else ""
        if kind == "character" and "character" not in ev:
            return "character_face_down"
        if kind == "character_choices" and isinstance(ev.get("characters"), list):
            values["characters"] = "、".join(self.character_name(c) for c in ev["characters"]) if self.lang == "zh" \
                else ", ".join(self.character_name(c) for c in ev["characters"])
            return "character_choices_own"
        if kind == "character_picked" and "character" in ev:
            return "character_picked_own"
        return kind

    def _generic(self, ev: Mapping[str, Any], values: Mapping[str, object]) -> str:
        """An event this client has no sentence for (a newer server, a new skill): still one line."""
        kind = str(ev.get("kind", "")).replace("_", " ")
        table = EVENTS[self.lang]
        if "seat" in ev:
            return table["unknown_seat"].format(seat=values.get("seat", "?"), kind=kind)
        return table["unknown"].format(kind=kind)


CARD_HELP = {
    "zh": {
        "锁定": "自己回合（出牌或传递时）：指定一名其他角色，本回合情报到达他时他必须接收。",
        "调虎离山": "情报传递时：指定一名角色（非自己、非传出者、未被锁定），本次情报跳过他。",
        "截获": "他人情报传递时：情报移到你面前，你必须接收。",
        "退回": "情报到达你面前时：情报反向传递（直达则退回传出者）。锁定时无效。",
        "破译": "情报到达你面前时：秘密查看这张情报。",
        "烧毁": "任何时候：弃置任意角色面前的一张黑情报。",
        "识破": "另一张功能牌打出后、结算前：令其无效（可识破识破）。",
        "试探": "出牌阶段：背面交给一名其他角色，他须如实回答（摸牌、弃牌或说一句话）。",
        "真伪莫辨": "出牌阶段：从牌堆翻开与在场人数相同的牌，从你起每人随机获得一张作为情报。",
        "转移": "（后期版）情报到达你面前时：把它交给另一名角色，他必须接收。",
        "调包": "（后期版）情报传递时：用这张牌换下传递中的情报，新情报正面朝上，传递方式不变。",
        "增援": "（后期版）出牌阶段：摸你的黑情报数加一张牌。",
        "博弈": "（后期版）出牌阶段：指定一名角色，牌堆顶的牌成为他面前的情报。",
        "权衡": "（后期版）出牌阶段：弃掉全部手牌，再摸同样多的牌。",
    },
    "en": {
        "锁定": "Your own turn (play or transmit): another player must accept this turn's message if it reaches him.",
        "调虎离山": "Transmit: one player (not you, not the sender, not locked) is skipped by this message.",
        "截获": "Transmit, during another player's message: the message moves to you and you must accept it.",
        "退回": "When the message arrives at you: it travels the other way (a Direct one returns). No effect if locked.",
        "破译": "When the message arrives at you: look at it privately.",
        "烧毁": "Any time: discard one black message in front of any player.",
        "识破": "After another function card is played, before it resolves: it has no effect (stackable).",
        "试探": "Play phase: hand it face down to another player, who answers truthfully (draw, discard or a line).",
        "真伪莫辨": "Play phase: reveal one card per player still in the game; from you on, each takes one at random as a message.",
        "转移": "(later edition) When the message arrives at you: pass it to another player, who must accept it.",
        "调包": "(later edition) Transmit: this card replaces the message in transit, face-up, same method.",
        "增援": "(later edition) Play phase: draw your black messages + 1 cards.",
        "博弈": "(later edition) Play phase: the top card of the deck becomes a message in front of a player.",
        "权衡": "(later edition) Play phase: discard your whole hand, then draw as many.",
    },
}

#: The short forms the table uses, explained on the help screen.
ABBREVIATIONS = {
    "zh": [
        "红/蓝/黑：牌的颜色；座位行的“红1 蓝0 黑2”是他面前的情报数",
        "3张：手牌数（别人的手牌只显示张数）",
        "[锁]：被锁定，本回合情报到达时必须接收；[离]：被调虎离山，本次情报跳过他",
        "(潜伏?摸)：试探问的身份（军情/潜伏/酱油）和“是”时做什么（摸牌/弃牌）",
        "▶：当前回合的玩家；⏳12秒：他还有多少秒作答",
        "盖：盖伏的角色；角色后的·男/·女：性别",
        "✗潜伏：座位行放不下时，死亡或出局的玩家和他的身份",
    ],
    "en": [
        "R / B / Bk: red, blue, black; \"R1 B0 Bk2\" on a seat row counts the messages in front of it",
        "3c: 3 cards in hand (only the count of another player's hand is shown)",
        "[L]: locked, must accept this turn's message; [S]: lured away, this message skips him",
        "(Mil?disc): the identity a Probe asks about (Mil/Lat/Neu) and what a yes does (draw / disc = discard)",
        "▶: whose turn it is; ⏳12s: seconds left to answer",
        "down: a face-down character; ·M/·F after a character: gender",
        "✗Lat: a dead or lost player and his identity, when the seat row has no room for the words",
    ],
}

RULES_SUMMARY = {
    "zh": [
        "每人有一个秘密身份：军情处（蓝）、潜伏战线（红），或打酱油的。",
        "你的回合：摸两张牌；出牌阶段可以使用功能牌；然后必须传出一张手牌作为情报。",
        "情报按图标传递：密电背面逐个传递，文本正面逐个传递，直达只传给指定的人。",
        "情报到达时，持有者可以接收或不接收；传回传出者时他必须接收。",
        "面前集齐三张己方颜色（红或蓝）情报的阵营获胜；集齐三张黑情报的人死亡。",
        "回合中无牌可传出的人出局。每次响应窗口里，所有人依次可以打出功能牌，后发先至。",
    ],
    "en": [
        "Everyone has a secret identity: Military (blue), Latent (red), or Neutral.",
        "Your turn: draw two cards; in the play phase use function cards; then send one card as a message.",
        "Messages travel by their icon: Secret face down seat by seat, Text face up seat by seat, Direct to one player.",
        "When a message arrives, its holder accepts or declines; back at the sender it must be accepted.",
        "A faction wins when one of its players has three messages of its colour; three black messages kill.",
        "A player with nothing to send is out. In each response window anyone may play; last played resolves first.",
    ],
}
