"""The words of table talk in the five communities, each mapped to what it means in the game.

The recogniser (``recognise.py``) reads a chat line as a row of these meanings (a seat, a
colour, "is", "lying", "why", ...) and its rules work on that row, so a language is only a
word list here: English (secrethitler.io), Chinese (simplified and traditional, read after
mapping traditional characters to simplified), Russian and Vietnamese, with the typos and
shorthand players use. Russian inflects, so its words are stems with endings (``STEMS``).
"""

from __future__ import annotations

# -- meanings --------------------------------------------------------------------------------
NUM = "num"  # a number (digits or a number word); value: int
SEAT = "seat"  # an explicit seat: "#3", "3号", "số 3", "Bot 3", a name; value: 0-based seat
SEAT_PREFIX = "seat_prefix"  # "seat", "#", "số", "бот", "机器人" (a number follows)
SEAT_SUFFIX = "seat_suffix"  # 号 (a number precedes)
ART = "art"  # "a", "an": a count of one before a colour, else nothing
COLOR = "color"  # a policy or party word: red, blue, fash, lib, 红, đỏ; value: "F" or "L"
PARTY = "party"  # a party said of a person only: "good", 好人, 坏人; value: "F" or "L"
CARDS = "cards"  # letters of a hand: "RRB", "ККС" (built by the tokenizer); value: codes
CLASSIFIER = "classifier"  # 张, 个, lá: between a count and a colour
HITLER = "hitler"
ROLE = "role"  # a game type's role a player claims or names: Merlin, Percival, the Monarchist;
# value: its name (``lines.CLAIMABLE_ROLES``)
IS = "is"
NOT = "not"
AND = "and"  # value "or" for an alternative ("3 or 5 is lying": a conflict)
TRUST = "trust"
LIE = "lie"
SUS = "sus"
HARDLIB = "hardlib"  # "hard lib", 铁蓝: trust said as a fact
CNH = "cnh"  # confirmed not Hitler
CONFLICT = "conflict"
CHANCELLOR = "chancellor"  # "why 5 as chancellor?": a nomination
WHY = "why"
QWORD = "qword"  # who, 谁, 吗: a question that asks, not tells; value "who" for a who-word
WHAT = "what"  # what, 什么, gì: what a question asks about (a claim: "what did you get?")
ASK_CLAIM = "ask_claim"  # "claim?", 报牌, khai bài: a call for a claim
WISH = "wish"  # hope, need, if, 希望, mong: a hand named in a wish or plan is no claim;
# value "next": "next time", 下次, lần sau (a plan whichever side of the hand it stands)
VOTE = "vote"
JA = "ja"
NEIN = "nein"
NOMINATE = "nominate"
ENACT = "enact"  # played, passed (a policy onto the board)
INV = "inv"
PEEK = "peek"
GOT = "got"  # received (a chancellor's two)
PASSED = "passed"  # handed on (a president's two)
DISCARD = "discard"
ALL = "all"
SHOOT = "shoot"
PRONOUN = "pronoun"  # he, she, они, 他: the investigated seat, in an investigation claim
YOU = "you"
I = "i"  # noqa: E741
HEDGE = "hedge"  # think, maybe, кажется, 觉得: a belief, not a fact
SURE = "sure"  # for sure, точно, 肯定
FILLER = "filler"  # words a rule may step over
FUTURE = "future"  # will, надо, 要, sẽ: an intention, not a report
SEP = "sep"  # : - — =
COMMA = "comma"
ARROW = "arrow"  # -> > → : what was passed
QMARK = "qmark"
STOP = "stop"  # . ! 。
OTHER = "other"

# Words by language: "word or phrase" -> meaning, or meaning and value. Phrases are split like
# chat text (words, single Chinese characters), so "hard lib" and "为什么" are phrases.
Entry = str | tuple[str, object] | tuple[tuple[str, object], ...]


def _each(words: str, meaning: Entry) -> dict[str, Entry]:
    """The same meaning for each of ``"a|b|c"``."""
    return dict.fromkeys(words.split("|"), meaning)


ENGLISH: dict[str, Entry] = {
    # colours and parties
    **_each("red|reds|redd", (COLOR, "F")),
    **_each("blue|blues|blu", (COLOR, "L")),
    **_each(
        ("fascist|fascists|fash|fashes|fashy|fasc|facist|facists|fachist|fas|fascism"), (COLOR, "F")
    ),
    **_each("liberal|liberals|lib|libs|libby|libbie|librul", (COLOR, "L")),
    **_each("good|clean|legit|fine", (PARTY, "L")),
    **_each("bad|evil|scum", (PARTY, "F")),
    **_each("hitler|hilter|hitla|h|hitlr|adolf|hitlers", HITLER),
    # secrethitler.io's game types (Avalon SH, the Monarchist)
    **_each("merlin|merl|merlyn|merlin's|merlins", (ROLE, "merlin")),
    **_each("percival|perc|percy|percival's|perci|percyval", (ROLE, "percival")),
    **_each("monarchist|monarch|monarchists|monarchist's|monarc", (ROLE, "monarchist")),
    # counts
    "one": (NUM, 1),
    "two": (NUM, 2),
    "three": (NUM, 3),
    "both": (NUM, 2),
    "a": ART,
    "an": ART,
    "all": ALL,
    "only": ALL,
    "one of each": (CARDS, ("FL", -1)),
    # seats
    **_each("seat|player|p|bot|number|#|@", SEAT_PREFIX),
    # grammar
    **_each("is|s|are|was|=|be|am|were", IS),
    **_each("he's|she's|they're|hes|shes|theyre", ((PRONOUN, None), (IS, None))),
    **_each("isn't|isnt|aren't|arent|wasn't|wasnt", ((IS, None), (NOT, None))),
    **_each("not|don't|dont|doesn't|doesnt|didn't|didnt|never|no", NOT),
    **_each("he|she|they|them|him|her|it", PRONOUN),
    **_each("and|&|+|/|but", AND),
    **_each("or|nor", (AND, "or")),
    **_each("chancellor|chanc|chancelor", CHANCELLOR),
    **_each("you|u|ya|you're|youre|ur", YOU),
    **_each("i|i'm|im|me|my|i've|ive", I),
    **_each("who|whos|who's|whom|which|who'd", (QWORD, "who")),
    **_each("anyone|someone|somebody|any", QWORD),
    **_each("what|wat|wut|whats|what's|which cards", WHAT),
    **_each("claim|claims", ASK_CLAIM),
    **_each("pres claim|president claim|pres claims", (ASK_CLAIM, "president")),
    **_each("chanc claim|chancellor claim|chanc claims", (ASK_CLAIM, "chancellor")),
    **_each("will|i'll|ill|gonna|let's|lets|should|shall|wanna", FUTURE),
    **_each(
        "hope|hoping|hopefully|hoped|wish|wishing|need|needs|want|wants|pray|praying|if|unless"
        "|would|fingers crossed",
        WISH,
    ),
    **_each("next time|next round|next gov|next government", (WISH, "next")),
    # judgements
    **_each("trust|trusting|trusted|believe|believing|vouch|trustworthy|trusts", TRUST),
    **_each("lying|lies|lied|liar|lier|lyin|lieing|lie|lyer|liar!", LIE),
    **_each(
        "sus|sussy|suspicious|sketchy|shady|fishy|sketch|dodgy|suss|sussed|suspect|suspects"
        "|suspected|suspecting|accuse|accusing|accused|blame|blaming|blamed",
        SUS,
    ),
    **_each(("hard lib|hardlib|confirmed lib|confirmed liberal|hard liberal|hard libs"), HARDLIB),
    **_each("cnh|confirmed not hitler|confirmed not h", CNH),
    **_each("conflict|conflicts|conflicted|conflicting|conf|cf", CONFLICT),
    **_each("why|how come|whyyy|whyy|wtf why", WHY),
    # actions
    **_each("vote|voted|voting|votes", VOTE),
    **_each("ja|yes|yea|jah|ja!", JA),
    **_each("nein|against|nien|nay", NEIN),
    **_each("nominate|nominated|nominating|pick|picked|chose|choose|nom|nommed", NOMINATE),
    **_each("played|play|enact|enacted|put|pass a|passing", ENACT),
    **_each(
        ("investigated|investigate|inv|invest|invested|invd|inved|checked|check|investigation"), INV
    ),
    **_each(("peek|peeked|peeking|top|top 3|top three|next 3|next three|on top|deck peek"), PEEK),
    **_each("got|received|recieved|was given|gave me|given|get|had|drew|draw|have", GOT),
    **_each("passed|gave|sent|pass|give|handed", PASSED),
    **_each("discarded|discard|burned|burnt|burn|tossed|dropped|ditched", DISCARD),
    **_each("shoot|shot|kill|killed|execute|executed|bullet", SHOOT),
    # belief and filler
    **_each(
        ("think|thinking|probably|prob|maybe|imo|likely|guess|feel|seems|looks|could|might|may"),
        HEDGE,
    ),
    **_each("sure|def|definitely|100%|certainly|absolutely|for sure|100", SURE),
    **_each(
        (
            "the|totally|really|so|very|af|also|just|too|tbh|ngl|honestly|literally"
            "|pretty|still|obviously|clearly|did|do|does|on|to|that|this|like|again"
            "|pres|president|as|of|policy|policies|card|cards|we|has|from"
            "|please|pls|for|on|with|in|between|read"
        ),
        FILLER,
    ),
}

RUSSIAN: dict[str, Entry] = {
    "один": (NUM, 1),
    "одна": (NUM, 1),
    "одну": (NUM, 1),
    "два": (NUM, 2),
    "две": (NUM, 2),
    "оба": (NUM, 2),
    "три": (NUM, 3),
    "все": ALL,
    "всё": ALL,
    "одни": ALL,
    "только": ALL,
    "по одному": (CARDS, ("FL", -1)),
    **_each("игрок|место|номер|№|бот|#|@", SEAT_PREFIX),
    **_each("это|есть|—|является", IS),
    **_each("не|нет", NOT),
    **_each("он|она|они|его|ее|ему|ей|тот|та", PRONOUN),
    **_each("и|а", AND),
    **_each("или|либо", (AND, "or")),
    **_each("канцлер|канцлеры|канцлера|канцлером", CHANCELLOR),
    "канцлеру": PASSED,
    **_each("может|может быть|возможно", HEDGE),
    "быть": IS,
    "под подозрением": SUS,
    "нравится": TRUST,
    **_each("вызывает доверие|вызывает доверия|вне подозрений", TRUST),
    **_each("ты|вы|тебя|тебе", YOU),
    **_each("я|мне|меня|у меня|мой|моя|мои", I),
    **_each("кто|кого|кому|ком", (QWORD, "who")),
    **_each("кто-то|кто то|ли", QWORD),
    **_each("какие|какая|какой расклад", WHAT),
    **_each("надо|нужно|давайте|давай|буду|хочу|выбери|проверить|го", FUTURE),
    **_each("надеюсь|надеемся|бы|если|хотелось|нужны|нужен|нужна|мечтаю", WISH),
    **_each("в следующий раз|в след раз|в следующий|потом", (WISH, "next")),
    **_each("твёрдый либерал|твердый либерал|твердый либ|чистый либерал|чистый", HARDLIB),
    **_each("за", JA),
    **_each("ja|да", JA),
    **_each("против|nein", NEIN),
    **_each("сверху|пик|верхние|верхние три|сверху лежат|колоду", PEEK),
    **_each("мне дали|мне передали|передали|дали", GOT),
    **_each("точно|явно|100%|100|стопудово|наверняка", SURE),
    **_each(
        (
            "ну|же|какой-то|какой|то|-то|уж|вот|ведь|просто|было|были|был|была|у"
            "|закон|законы|закона|законов|карты|в|ни|именно|на|под|что|ещё|еще"
            "|лежат"
        ),
        FILLER,
    ),
    "что": (FILLER, "what"),  # "что пришло?": a call for a claim
}

# Russian words by stem: (pattern of the whole word, meaning, value).
STEMS: list[tuple[str, str, object]] = [
    (r"красн(ый|ая|ое|ые|ых|ого|ую|ой|ым|ыми|ые)?|кр", COLOR, "F"),
    (r"син(ий|яя|ее|ие|их|его|юю|ей|им|ими|яя)?", COLOR, "L"),
    (
        r"фаш(ист|иста|исты|истов|истка|истский|истская|истские|истских|истского|ик|ики|ня|истом)?",
        COLOR,
        "F",
    ),
    (
        r"либ(ерал|ерала|ералы|ералов|ералка|еральный|еральная|еральные|еральных|ерального|ерку|ерка)?",
        COLOR,
        "L",
    ),
    (r"гитлер\w*|гит", HITLER, None),
    (r"мерлин\w*", ROLE, "merlin"),
    (r"персивал\w*|перс", ROLE, "percival"),
    (r"монархист\w*", ROLE, "monarchist"),
    (
        r"вр(ет|ут|ешь|ал|ала|али|ун|унья|еш)|лж(ет|ешь|ец)|обманыва\w*|брешет|гонит|пиздит|звиздит",
        LIE,
        None,
    ),
    (r"подозрител\w*|мутн\w*|мутит|палится|подозрева\w*|обвиня\w*|обвинил\w*", SUS, None),
    (r"конфликт\w*", CONFLICT, None),
    (r"провер(ил|ила|ял|яла|ка|ку|ки|или)|чекн(ул|ула)|чекал|проверено", INV, None),
    (r"голос\w*|проголос\w*", VOTE, None),
    (
        r"выбрал\w*|выбрат\w*|выбира\w*|выдвину\w*|выдвига\w*|номинирова\w*|взял|взяла"
        r"|взять|предложил\w*",
        NOMINATE,
        None,
    ),
    (r"застрел\w*|стреля\w*|убил\w*|убей|убейте|казн\w*|расстрел\w*", SHOOT, None),
    (r"передал|передала|отдал|отдала|дал|дала|ушл[оаи]|ушел|ушёл", PASSED, None),
    (r"получил[аи]?|пришл[оаи]|пришел|пришёл|достал[аи]?|вытянул[аи]?|тянул[аи]?", GOT, None),
    (r"скинул[аи]?|сбросил[аи]?|выкинул[аи]?|слил[аи]?", DISCARD, None),
    (r"посмотрел[аи]?|смотрел[аи]?|подсмотрел[аи]?|глянул[аи]?", PEEK, None),
    (r"вер(ю|им|ишь|ите)|доверя\w*", TRUST, None),
    (r"почему|зачем|нафига|нахрена|чего|откуда", WHY, None),
    (r"принял[аи]?|провел[аи]?|провёл|выложил[аи]?|положил[аи]?|выбрал[аи]? синий", ENACT, None),
    (r"думаю|кажется|наверное|походу|вроде|видимо|похоже|по-моему", HEDGE, None),
]

CHINESE: dict[str, Entry] = {  # simplified; traditional text is mapped to simplified first
    "红": (COLOR, "F"),
    "蓝": (COLOR, "L"),
    "法西斯": (COLOR, "F"),
    "自由派": (COLOR, "L"),
    "自由党": (COLOR, "L"),
    "自由": (COLOR, "L"),
    "好人": (PARTY, "L"),
    "坏人": (PARTY, "F"),
    "希特勒": HITLER,
    "希": HITLER,
    "小胡子": HITLER,
    "梅林": (ROLE, "merlin"),
    **_each("派西维尔|派西", (ROLE, "percival")),
    **_each("保皇派|保皇党", (ROLE, "monarchist")),
    "一": (NUM, 1),
    "两": (NUM, 2),
    "二": (NUM, 2),
    "俩": (NUM, 2),
    "三": (NUM, 3),
    "四": (NUM, 4),
    "五": (NUM, 5),
    "六": (NUM, 6),
    "七": (NUM, 7),
    "八": (NUM, 8),
    "九": (NUM, 9),
    "十": (NUM, 10),
    **_each("张|个|枚", CLASSIFIER),
    **_each("全|全是|都是|全都是|全部", ALL),
    "号": SEAT_SUFFIX,
    **_each("机器人|#", SEAT_PREFIX),
    **_each("是|就是", IS),
    **_each("不|没|没有|不是", NOT),
    **_each("他|她|它|ta", PRONOUN),
    **_each("和|跟|与|还有", AND),
    **_each("或|或者", (AND, "or")),
    "总理": CHANCELLOR,
    **_each("你|您", YOU),
    **_each("我", I),
    **_each("谁|哪个|哪位", (QWORD, "who")),
    **_each("吗|么|有人|谁有", QWORD),
    **_each("什么|啥|什么牌|啥牌", WHAT),
    **_each("报牌|报一下|报下|报一下牌|报下牌", ASK_CLAIM),
    **_each("要|会|想|准备|打算", FUTURE),
    **_each("希望|但愿|求|如果|要是|需要|想要|盼", WISH),
    **_each("下次|下一次|下一轮|下轮", (WISH, "next")),
    **_each("信|相信|保|信任", TRUST),
    **_each("骗|骗人|说谎|撒谎|在骗|假|说假话|谎", LIE),
    **_each("可疑|有问题|怀疑|很假|像红|有鬼|针对|踩", SUS),
    **_each("铁蓝|铁好人|金水|真蓝", HARDLIB),
    **_each("冲突|对不上|矛盾|不一致", CONFLICT),
    **_each("为什么|为啥|干嘛|为何|怎么", WHY),
    **_each("投|投票|票", VOTE),
    **_each("赞成|同意|ja", JA),
    **_each("反对|否决|nein", NEIN),
    **_each("提名|选|选了|挑", NOMINATE),
    **_each("出|出了|通过|打了|打出", ENACT),
    **_each("查|查了|查验|验|验了|调查|调查了|查过|验过", INV),
    **_each("看牌|预览|牌堆顶|上面三张|顶|看了一下|看了|上面|上三张", PEEK),
    **_each("拿到|收到|给我|给了我|摸到|抽到|拿了", GOT),
    **_each("给了|给|传了|传", PASSED),
    **_each("弃了|弃|丢了|丢|扔了|扔|弃掉|丢掉", DISCARD),
    **_each("枪毙|处决|杀|毙|杀了|枪", SHOOT),
    **_each("觉得|可能|应该|感觉|猜|估计|像|吧", HEDGE),
    **_each("肯定|绝对|一定|百分百|确定", SURE),
    **_each("在|很|都|也|啊|呢|的|了|牌|拿|没办法|当|时|就|人", FILLER),
}

VIETNAMESE: dict[str, Entry] = {
    "đỏ": (COLOR, "F"),
    "xanh": (COLOR, "L"),
    "phát xít": (COLOR, "F"),
    "phat xit": (COLOR, "F"),
    "tự do": (COLOR, "L"),
    **_each("người bảo hoàng|bảo hoàng|phe bảo hoàng", (ROLE, "monarchist")),
    "một": (NUM, 1),
    "hai": (NUM, 2),
    "ba": (NUM, 3),
    **_each("lá|cái", CLASSIFIER),
    **_each("toàn|toàn bộ|cả", ALL),
    **_each("số|ghế|thằng|con|bot", SEAT_PREFIX),
    **_each("là|ra", IS),
    **_each("không|ko|chẳng|không phải|hong", NOT),
    **_each("nó|ổng|bả|người đó", PRONOUN),
    **_each("và|với", AND),
    **_each("hoặc|hay", (AND, "or")),
    "thủ tướng": CHANCELLOR,
    **_each("có vẻ|có thể", HEDGE),
    "ổn": (PARTY, "L"),
    **_each("bảo đảm|bảo đảm cho|đảm bảo", TRUST),
    **_each("bạn|mày|ông", YOU),
    **_each("mình|tôi|tao|em|tớ", I),
    **_each("ai", (QWORD, "who")),
    **_each("gì|bài gì|những gì", WHAT),
    **_each("khai bài|khai", ASK_CLAIM),
    **_each("sẽ|định|đi|để", FUTURE),
    **_each("mong|hy vọng|hi vọng|cần|muốn|nếu|ước|cầu", WISH),
    **_each("lần sau|ván sau|vòng sau|lượt sau", (WISH, "next")),
    **_each("tin|tin tưởng", TRUST),
    **_each("nói dối|xạo|điêu|lừa|nói xạo|dối", LIE),
    **_each("đáng nghi|nghi|khả nghi|sú|có vấn đề|tố|buộc tội|nghi ngờ", SUS),
    **_each("xanh chắc", HARDLIB),
    **_each("xung đột|lệch|lệch nhau|lệch bài", CONFLICT),
    **_each("sao|tại sao|vì sao|sao lại", WHY),
    **_each("bỏ phiếu|phiếu|vote", VOTE),
    **_each("thuận|đồng ý|ja", JA),
    **_each("chống|phản đối|nein", NEIN),
    **_each("đề cử|chọn", NOMINATE),
    **_each("ban hành|thông qua", ENACT),
    **_each("soi|điều tra|check", INV),
    **_each("xem trước|xem bài|trên cùng|lá trên|3 lá trên|ba lá trên|trên", PEEK),
    **_each("nhận|nhận được|đưa mình|được|bốc|rút|bốc được|rút được", GOT),
    **_each("đưa|chuyển|giao", PASSED),
    **_each("bỏ|loại|vứt", DISCARD),
    **_each("bắn|hành quyết|giết", SHOOT),
    **_each("nghĩ|chắc|có lẽ|hình như|đoán", HEDGE),
    **_each("chắc chắn|100%", SURE),
    **_each("đang|rồi|luôn|thật|đó|này|ơi|có|bài|của|tổng thống|vậy|làm", FILLER),
}

# Vietnamese typed without its marks ("do do xanh", "noi doi"): read only when the line is
# Vietnamese, since "do", "so", "tin" and "ba" are English words too.
VIETNAMESE_BARE: dict[str, Entry] = {
    "do": (COLOR, "F"),
    "noi doi": LIE,
    "so": SEAT_PREFIX,
    "tin": TRUST,
    "la": IS,
    "nhan": GOT,
    "dua": PASSED,
    "khong": NOT,
    "xung dot": CONFLICT,
    "dang nghi": SUS,
    "chong": NEIN,
    "thuan": JA,
    "phat xit": (COLOR, "F"),
    "tu do": (COLOR, "L"),
    "bao hoang": (ROLE, "monarchist"),
    "mot": (NUM, 1),
    "hai": (NUM, 2),
    "bo phieu": VOTE,
    "tai sao": WHY,
    "sao": WHY,
}

# Traditional characters of the words above -> simplified, so one table reads both scripts.
TRADITIONAL = str.maketrans(
    "鐵紅藍號兩個張說謊騙衝對為麼贊驗預覽給傳棄頂斃槍處決黨壞覺應該確絕嗎誰選機還與總統"
    "們這調問題過經場裡輸贏殺丟檢來結誤錯庫會讓議轉點準備懷於聽講沒頭實邊舉歡戲遊維爾",
    "铁红蓝号两个张说谎骗冲对为么赞验预览给传弃顶毙枪处决党坏觉应该确绝吗谁选机还与总统"
    "们这调问题过经场里输赢杀丢检来结误错库会让议转点准备怀于听讲没头实边举欢戏游维尔",
)

CARD_LETTERS: list[tuple[str, str]] = [("r", "b"), ("f", "l"), ("к", "с"), ("ф", "л")]

# Words that turn a following or preceding number into something other than a seat.
NOT_A_SEAT = frozenset(
    ["more", "min", "mins", "minute", "minutes", "sec", "secs", "games", "game", "times"]
    + ["time", "players", "people", "rounds", "round", "раза", "раз", "игры", "игр"]
    + ["минуты", "минут", "мин", "человек", "раунд", "ván", "phút", "người", "lần", "局", "个"]
)
