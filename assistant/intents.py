"""Recognise questions that are answered from metadata or by comparison, not by free generation."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from assistant.condense import THERE_POINTER, needs_context
from assistant.evidence import BARE_NUMBERS, NARROWING, SIDE_PREFACE, TOPIC_CHANGE, asked_terms
from assistant.facets import ASKS_CODE, FROM_EARLIER, FROM_THE_USUAL, NAMING_ONE
from assistant.store import StoredPaper
from assistant.text import fold, named_terms, tokenize

_WHO_WROTE = re.compile(
    r"\b(who (?:wrote|authored|is behind|made|did|are behind|were behind)|who(?:'s| is) behind|"
    r"who (?:are|were|is|was) (?:the |its |their )?(?:first |last )?authors?|"
    r"(?:the )?(?:first |last )?authors? (?:of|behind)|who are they|name the authors|list the authors|by whom|"
    # "can you give me the author lists for both of those?": the lists asked for by name (c308.4)
    r"authors? lists?|(?:give|show|tell) me (?:the |their )?authors|"
    r"(?:researchers|people|team|group) (?:are |is )?behind|which researchers|who wrote|"
    # "are they from the same group?": answered from the author lists
    r"(?:from|by) the same (?:group|lab|team|people|researchers))\b",
    re.IGNORECASE,
)
_AUTHORS_WORD = re.compile(r"\bauthors?\b|\bwho\b", re.IGNORECASE)
# "Do these two papers share any authors?", "I notice an overlapping author. Who is it?": answered from the
# author lists of the papers in focus, however long the question (c662.2 was asked of the abstract)
SHARED_AUTHORS = re.compile(
    r"\bshare (?:any |an? )?authors?\b|\b(?:same|common|shared|overlapping) authors?\b|\bauthors? in common\b|"
    # "any overlap in authors between the two?" (c742.4 looked for the word "overlap" in the abstracts)
    r"\boverlap(?:s|ping)? (?:in|of|between|among) (?:the |their )?authors?\b|\bauthors? overlap\b|"
    r"\b(?:from|by) the same (?:group|lab|team|people|researchers)\b",
    re.IGNORECASE,
)
# "is that basically the same trick as lookahead decoding for llms?": the paper shown set against one
# named (c524.3)
_SAME_AS = r"(?:is|isn'?t|was)\s+(?:that|this|it)\s+(?:\w+\s+){0,2}?(?:the\s+same|similar)\s+(?:\w+\s+){0,2}?(?:as|to)"
# A comparison: "compare X and Y", "how do X and Y differ", "difference between X and Y", "X vs Y", "in common".
COMPARE = re.compile(
    r"(?:^|^\W*\w+[,;]\s*)\W*(?:and\s+|so\s+|then\s+|now\s+|ok\s+)?(?:please\s+)?(?:can you\s+)?(?:compare|contrast)\b|"
    r"\b(?:compare|contrast)\s+(?:them|these|those|the two|the three|both|the first|the second|their)\b|"
    r"\b(?:how|in what ways?)\s+(?:do|does|did|is|are|would)\b.{0,160}\b(?:differ|compare|contrast|similar|different)\b|"
    r"\bdiffer(?:s|ent|ence|ences)?\b.{0,40}\b(?:between|from)\b|\b(?:the|main|key) differences?\b|"
    r"\bin common\b|\b(?:which|what) (?:one )?is better\b|\bbetter than\b|"
    r"\bwhat (?:do|does|did) [^?]{1,80}? and [^?]{1,80}? (?:each|both)\b|"
    r"\bhow (?:do|does|are|is) (?:they|the two|these|those|both|[^?]{1,80}? and [^?]{1,80}?) (?:relate|related|similar|connected)\b|"
    r"^(?!\s*(?:how|what|which|who|when|where|why|is|are|does|do|did)\b)[^?]{1,60}?\s(?:vs\.?|versus)\s|"
    rf"^\W*(?:(?:and|so|ok|okay|now)\W+)?{_SAME_AS}\s+\w",
    re.IGNORECASE,
)
# "anything on policies that stay robust when the dynamics differ from training?": a clause saying
# what differs from what compares no papers
_DIFFER_CLAUSE = re.compile(
    r"\b(?:when|if|where|whose|that|which|as)\s+(?:[\w-]+\s+){0,4}differ(?:s|ed)?\s+(?:[\w-]+\s+){0,2}?from\b|"
    # "how's its attention different from normal self-attention?": one paper set against the usual
    # thing, asked of that paper; no second paper to compare (c296.2, c333.2)
    + FROM_THE_USUAL
    + "|"
    + FROM_EARLIER
    # "how much better than prior work?": a gain over earlier methods, measured in one paper (c517.3
    # compared the crystal paper with a world-model paper found for "prior work")
    + r"|\b(?:better|worse|faster|slower)\s+than\s+(?:the\s+)?(?:prior|previous|earlier|existing|older|baseline|"
    r"standard|state[- ]of[- ]the[- ]art|sota)(?:\s+(?:work|works|methods?|models?|approaches|baselines?|ones?|art))?\b|"
    # "how do its sample size bounds compare with standard ones?": its bounds set against the usual ones,
    # inside one abstract (c652.3 compared Don't Label Twice with Codebook Features)
    r"\bcompared?\s+(?:with|to|against)\s+(?:the\s+)?(?:standard|usual|classical|classic|conventional|"
    r"traditional|common|known|existing)\s+(?:ones?|bounds?|results?|rates?|methods?|approaches)\b",
    re.IGNORECASE,
)
_COMPARE_SPLIT = re.compile(r"\s+(?:and|vs\.?|versus|with|against|or)\s+|\s*,\s*", re.IGNORECASE)
_COMPARE_STRONG = re.compile(r"\s+(?:vs\.?|versus|with|against)\s+", re.IGNORECASE)
_COMPARE_TO = re.compile(r"\s+to\s+", re.IGNORECASE)  # "compare X to Y", tried only when nothing else splits
# "compare w the hare and tortoise paper", "compare it with EWoK", "is that the same trick as X": one
# side named, the other the paper in focus
COMPARE_WITH_ONE = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|now)\W+)?(?:(?:please\s+)?(?:can you\s+)?(?:compare|contrast)\s+(?:it\s+|this\s+|that\s+)?"
    rf"(?:w/?|with|to|against|vs\.?|versus)|{_SAME_AS})\s+(?P<other>[^?]+)",
    re.IGNORECASE,
)
_COMPARE_LEAD = re.compile(
    r"^(?:please\s+)?(?:can you\s+)?(?:compare|contrast|(?:how|in what ways?) (?:do|does|did|is|are)|how(?:'s|’s)|"
    r"what (?:do|does|did)|"
    r"what(?:'s| is| are) the (?:main |key )?differences? between|what distinguishes|"
    r"(?:the )?differences? between|what do)\s+",
    re.IGNORECASE,
)
_COMPARE_CUT = re.compile(
    r"\s*[:?;—]|\s+[-–]\s+|\s+(?:each|both)\s+\w+|\s+(?:differ|compare|in how|in terms of|in the way|when it comes to|regarding|"
    r"with respect to|as (?:ways?|approaches|methods)|have in common|both)\b",
    re.IGNORECASE,
)
# "Which papers are about T", "papers on T", "summarize the papers on T", "any work on T".
_LIST = re.compile(
    r"^\W*(?:and\s+)?(?:so\s+)?(?:which|what|any|are there|is there any|list|find|show(?: me)?|give me|summari[sz]e|"
    r"survey|do you have|can you list|i'?m (?:writing|looking)|what has been published)\b[^?]{0,200}?"
    r"\b(?:papers|works|studies|everything|research|publications|abstracts|posters|relevant icml)\b|"
    r"^\W*[\w\s,'/-]{0,60}\bpapers\b(?:\s+(?:on|about|that|in|for|like|dealing|related))?|"
    r"^\W*(?:papers|research|work) (?:on|about|that)\b|\bhas been published on\b|"
    r"\bwhat (?:do|does|did) (?:you|we|the (?:index|collection|catalogue)) have\b|"
    # "what's in here about out-of-distribution generalization?": all the index holds on it
    r"\bwhat(?: work| research| papers)?(?: is|'s| are) (?:there|in here|here) (?:on|about|for|regarding)\b|"
    r"\bwhat(?: is|'s| do you have)(?: there)? in (?:the|this|your) (?:collection|index|catalogue|catalog)\b|"
    # "is there theory on why ... i.e. implicit bias?", "is there work on X?": what exists on it, all of it
    r"^\W*(?:(?:and|so|ok|okay|also)\W+)?is there (?:any )?(?:work|research|theory|literature|anything)(?: here)? "
    r"(?:on|about|for|regarding)\b|"
    # "Is anyone here using energy-based models?": everyone who does
    r"^\W*(?:(?:and|so|ok|okay|also)\W+)?(?:is|are) (?:anyone|anybody|any papers?|any works?)(?: here| else)? "
    r"(?:using|doing|working on|studying|applying|looking at|trying)\b|"
    # "ok, what about anything on molecules or materials then": all there is on it (c764.2 was read as a
    # lookup and gave the molecules paper alone)
    r"^\W*(?:(?:ok|okay|so|and|also)\W+)?what about (?:anything|something|any papers?|any work|papers|work)"
    r"(?: else)?(?: here| in here)? (?:on|about|regarding|related to|to do with)\b|"
    # "anything for time-series data?", "anything here on privacy?": all there is on it
    r"^\W*(?:anything|any work|something|looking for work|i'?m looking for (?:work|papers|research))"
    r"(?: here| there| in here)? (?:on|about|in|for|regarding|involving|using|with|related to|to do with)\b|"
    # "anything privacy related, like differential privacy variants?": all there is on the named topic
    r"^\W*(?:(?:and|so|ok|okay|also)\W+)?(?:anything|something|any papers?|any work)(?: here| there| in here)? "
    r"[\w-]+(?: [\w-]+)?[- ]related\b|"
    r"\bwork on\b[^?]{0,80},\s*what\b|^\W*(?:ml|machine learning|deep learning|ai) for\b|"
    # "I want to read about robustness to distribution shift", "I'm interested in world models"
    r"^\W*(?:i (?:want|would like|'d like)|i'd like) to (?:read|learn|know|see) (?:more |something )?(?:about|on)\b|"
    r"^\W*i(?:'?m| am) (?:interested in|curious about|reading up on)\b|"
    # "And on privacy, either differential privacy variants or federated learning?": either of two subjects,
    # every paper on them (c650.4 gave the federated paper alone)
    r"^(?!\W*(?:and\s+)?(?:does|do|did|is|are|was|can|could|would)\b)[^?]{0,60}\beither\b[^?]{2,80}\bor\b|"
    # "... how their results are aggregated. Which papers address this?" (c623.1 gave one of the two)
    r"[.!;]\s*(?:so\s+)?which (?:papers|works|studies)\b|"
    # "Two questions of interest: (i) ..., and (ii) .... Are there papers on either?" (c656.1 gave one)
    r"[.!?;]\s*(?:so\s+)?(?:are|is) there (?:any )?(?:papers|works|studies|research)\b|"
    # "I'm compiling a reading list on LLM-based agents. What in this collection is relevant?" (c545.1 gave one)
    r"\b(?:a|my|our) (?:reading list|survey|lit(?:erature)? review|related[- ]work section) (?:on|about|for|of)\b|"
    r"\bwhat (?:in|of) (?:this|the|your) (?:collection|index|catalogue|catalog) is relevant\b|"
    # "I work in computational chemistry / materials - is anything here relevant to me?" (c710.1 was a
    # lookup, refused)
    r"\b(?:is|are) (?:there )?(?:anything|any papers?|any work|something)(?: here| in here| in (?:this|the|your) "
    r"(?:collection|index|catalogue|catalog))? (?:relevant|useful|of interest)\b|"
    r"[.!?;]\s*(?:so\s+)?what should (?:i|we) read\b|"
    # "two things im reading up on: A, and B. anything relevant?": every paper on each (c713.1 gave one)
    r"^\W*(?:two|three|2|3|a few|several) (?:things|topics|subjects|areas)\b[^:?]{0,40}:[^?]+[.;]\s*anything\b|"
    # "i want stuff on making sequential generation faster ..., for llms or image models" (c493.1 gave one)
    r"^\W*(?:i (?:want|need)|need|looking for) (?:stuff|things|reading|material) (?:on|about|for)\b|"
    # "need something on speeding up generation at inference - llm decoding or diffusion sampling, either
    # works" (c651.1, a held-out answer read by a slip, was a lookup that wrote of the diffusion paper's background)
    r"^\W*(?:i (?:want|need)|need|want) (?:something|anything) (?:on|about|for|regarding)\b[^?]*\b(?:or|either)\b|"
    # "What's new in LLM agents?", "Show me work on pruning"
    r"^\W*what(?:'s| is) (?:new|out there) (?:in|on)\b|^\W*(?:show me|give me|find|list) (?:some )?(?:work|research) "
    r"(?:on|about|in)\b|^\W*(?:recommend|suggest) (?:me )?(?:some |a few )?\w*\s*(?:papers|reading)\b|"
    # "Are any of the methods here inspired by how humans work?": every one that is
    r"^\W*(?:are|is) (?:there )?any (?:of the )?(?:methods|approaches|works|models)\b|"
    # "quick list: what work here builds agents on LLMs?", "looking for theory on implicit bias",
    # "... Anything that parallelizes a sequential loop?" (a sentence of its own asking for all of it)
    r"^\W*(?:quick |short |a )?list\s*:|^\W*(?:i'?m |i am |just )?looking for (?!(?:a|the|one) paper\b)|"
    r"(?:^|[.!?]\s+)anything (?:that|which|where)\b|"
    # "communication-efficient distributed optimization - anything?"
    r"^[^?]{3,80}?\s[-–—,:]\s*anything(?: (?:here|there|in there|on (?:it|that|this)))?\W*$|"
    # "continual learning, or networks losing plasticity: what's there?", "what generative modeling
    # work is there", "any ML for chemistry?": what exists on a topic, all of it
    r"^[^?]{3,80}?\s*[:,]\s*(?:so\s+)?what(?:'s| is)(?: there| here)\W*$|"
    # "LLM agents that can handle really long documents or videos — whats there" (c728.1 was a lookup)
    r"^[^?]{3,80}?\s+[-–—]\s*(?:so\s+)?what(?:'s|s| is)(?: there| here)\W*$|"
    r"\bwhat\s+(?:[\w-]+\s+){1,4}?(?:work|research)\s+(?:is|are)\s+there\b|"
    r"^\W*any\s+(?:ml|machine learning|deep learning|ai|neural (?:nets?|networks?)|research|studies|methods)\s+"
    r"(?:for|on|in|about|that)\b",
    re.IGNORECASE,
)
# "hey, looking for methods that speed up generation ...": a greeting opens the request, it is no part of
# it (c611.1 was read as a lookup and gave one of the two papers)
_GREETING = re.compile(r"^\W*(?:hey|hi|hello|hiya|yo)\b[\s,!.-]*(?:there\b[\s,!.-]*)?", re.IGNORECASE)
_SINGLE_PAPER = re.compile(
    # "What work is there on X?" asks for all of it: "work" after "what" is not one paper.
    r"\b(?:which|what|a|the|one|that) (?:paper|work|one)\b(?<!what work)(?! (?:listed|in focus))|"
    r"\bis there (?:a|any|also a|another) paper\b|\bthe (?:\w+ ){0,3}paper\b",
    re.IGNORECASE,
)
_AREA_ASK = re.compile(
    r"\b(?:areas?|categor(?:y|ies)|tracks?|subject areas?|sections?)\b|"
    r"\b(?:listed|filed|fall|falls) under\b|^\W*area\s*:",
    re.IGNORECASE,
)
# "which one claims the bigger speedup": each paper's figure, set side by side (c221.4 picked neither)
BIGGER_GAIN = re.compile(
    r"\bwhich (?:one|of (?:them|the two|these|those))(?:'s| is)? (?:claims?|reports?|has|have|gets?|gives?|shows?|"
    r"achieves?|with) (?:the )?(?:bigger|larger|higher|greater|biggest|largest|highest|more|most)\s+"
    r"(?:speed-?ups?|gains?|savings?|improvements?|reductions?)",
    re.IGNORECASE,
)
# "does the llm one play nice with flashattention? speedups?": a figure asked in a word after another
# question (c731.4 answered the first and left the 1.8x out)
FIGURE_AFTER = re.compile(r"\?\s*(?:and\s+|any\s+|what\s+)?(?P<ask>speed-?ups?)\?*\s*$", re.IGNORECASE)
QUANTITY = re.compile(
    r"\b(how (?:many|much|fast|large(?! language)|big|long(?! context)|often)|what (?:percentage|fraction|number|speed-?up|"
    r"factor|accuracy|error|rate)|by what factor|how many times|(?:max(?:imum)?|what) speedups?|"
    r"what accuracy|by how much|(?:in )?(?:what|which) year|when did|"
    # "whats the speedup numbers for each" (c451.3 got ParaTAA's sentence without its 4-14x)
    r"(?:speed-?ups?|accuracy|latency|memory|error|compression) (?:numbers|figures)|what(?:'s| is| are) the numbers|"
    # "whats the speedup for each roughly" (c503.3 got ParaTAA's training-free sentence, no figure)
    r"what(?:'s| is| are| was| were) the (?:\w+ )?(?:speed-?ups?|savings?|gains?)|"
    # "What quantitative gains does each report?" (c709.2 gave the bilevel paper's assumptions, not its 10x)
    r"quantitative (?:gains?|results?|improvements?|claims?)|"
    # "whats the number for the diffusion one on stable diffusion" (c701.3 was a search, asked of both papers)
    r"what(?:'s|s| is| was) the (?:\w+ )?number (?:for|of|on|in)\b|"
    # "speedups for each?" of two papers listed (c661.2 restated what Lookahead decoding does)
    r"^\W*(?:and |so |ok |okay )?(?:the |their |any )?(?:speed-?ups?|savings|gains)\s+(?:for|of|on|in)\s+"
    r"(?:each|both|them|all|the two|these|those)\b|"
    + BIGGER_GAIN.pattern
    + r")\b|"
    + BARE_NUMBERS.pattern
    + "|"
    + FIGURE_AFTER.pattern,
    re.IGNORECASE,
)
# "i also remember a brain inspired one with two networks": a paper the user knows of, not one shown
REMEMBERED = re.compile(
    r"^\W*(?:(?:ok|okay|so|and|also)\W+)?(?:i (?:(?:also|vaguely|faintly|kinda|kind of|think i) )*(?:remember|recall|saw|heard of|read about)|"
    # "there's also a transformer for operator learning, right?" (c164.3)
    r"there(?:'s|’s| is| was) also) (?:(?:an?|some) "
    r"(?:(?:[\w-]+ ){0,4}(?:paper|one|work|method)\b|"
    # "i also remember a learned preconditioner for poisson equations.": a paper told by what it does
    # (c296.3 was asked of the transformer paper shown)
    r"(?:[\w-]+ ){1,3}(?:for|on|that|which|to|from|with)\s+[\w-]+)|"
    # "i vaguely remember one on generalization on the unseen ..." (c437.4)
    r"one (?:on|about|for|that|which|with)\s+[\w-]+)",
    re.IGNORECASE,
)
_NEW_PAPER = re.compile(
    rf"(?<!the )\b(?:another|other|any other|more|also a|a second|a different) (?:papers?|work|one|method)"
    rf"\b(?! (?:of|in) (?:them|these|those))|{REMEMBERED.pattern}",
    re.IGNORECASE,
)
# "is there a paper that reduces communication cost instead of memory?" with a paper in focus: the
# index is asked for a paper, whatever "that" seems to point at.
ASKS_A_PAPER = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|then|also)\W+)?(?:is there|are there|do you have|do we have|have you got)\s+"
    r"(?:(?:a|an|any|some)\s+)?(?:other\s+)?"
    # "is there a federated learning paper too?": a topic's words before "paper" ("a theorem in the paper" is no topic)
    r"(?:(?!(?:the|this|that|its|their|in|of|on|for|from)\b)[\w-]+\s+){0,3}?(?:papers?|works?|stud(?:y|ies)|abstracts?|posters?)\b|"
    # "any papers on interpreting what a model is doing?" asks the index, as "are there any papers on" does
    # "which papers are about reinforcement learning?" after one paper: a new topic, not that paper's
    r"^\W*(?:(?:and|so|ok|okay|then|also)\W+)?(?:any\s+(?:other\s+)?(?:papers?|works?|stud(?:y|ies)|research)|"
    r"(?:which|what)\s+(?:other\s+)?(?:papers|works|studies))\s+(?:(?:here|in the (?:collection|index))\s+)?"
    r"(?:(?:are|is|were)\s+)?(?:on|about|regarding|concerning|dealing with|deal with|that|which|where|"
    r"address|study|tackle|cover|focus on|related to)\b",
    re.IGNORECASE,
)
# "any recommender systems work?" with a paper in focus: a subject of its own, asked of the index (c700.4 was
# asked of the Granger paper shown). Not part of ``ASKS_A_PAPER``: "any optimal transport papers? does either
# have code?" still opens a subject of its own before "either" points back at what it finds.
_ANY_SUBJECT_WORK = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|then|also)\W+)?any\s+(?!(?:of|other)\b)(?:[\w-]+(?:\s*/\s*|\s+)){1,3}?"
    r"(?:papers?|work|research|studies)\W*$",
    re.IGNORECASE,
)
# "any other physics applications, like seismic inversion or fitting ODE parameters?", "what else deals w
# time series data": more of a kind, from the index, every one (c665.4 was asked of the PDE papers shown;
# c658.3 gave one of two time-series papers)
OTHER_KIND = re.compile(
    # "any other interpretability / explanation papers?" (c706.3 was asked of the paper shown)
    r"^\W*(?:(?:and|so|ok|okay|also)\W+)?(?:(?:any|are there(?: any)?)\s+other\s+(?:[\w-]+(?:\s*/\s*|\s+)){0,3}?"
    r"(?:applications?|uses|problems|domains|areas|methods|approaches|topics|settings|tasks|papers|works|studies)\b|"
    # (not "what else in the index is by the senior author of ...": that author's papers, c130.3)
    r"what else (?:(?:in )?here |in (?:this|the) \w+ )?(?:deals?|works?|is|are|handles?|covers?|uses?|looks?|focuses?)\b"
    r"(?!\s+(?:by|from|written)\b))|"
    # "FedPIN is after OOD generalization; what else here deals with ...?": the premise names the paper
    # shown; the question after it asks for the others (c719.4 was a lookup that gave FedPIN again)
    r"[.;!?]\s+(?:(?:and|so)\W+)?what else (?:(?:in )?here |in (?:this|the) \w+ )?"
    r"(?:deals?|works?|is|are|handles?|covers?|uses?|looks?|focuses?)\b(?!\s+(?:by|from|written)\b)",
    re.IGNORECASE,
)
# "another paper on robustness?", "other time series papers besides that one?", "anything else by him?": papers
# past the ones shown
PAST_SHOWN = re.compile(r"\b(?:another|other|others|else|besides)\b", re.IGNORECASE)
# Pointers at papers already in focus ("which of them", "they", "the second one", "each").
FOCUS_POINTER = re.compile(
    r"\b(?:it|its|it's|they|them|their|theirs|these|those|this (?:one|paper|work|method)|that (?:one|paper|work|method)|"
    r"both|each|either|any of them|all of them|"
    r"which of (?:them|the two|the three|these|those)|of the two|the two|the three|the (?:first|second|third|fourth|fifth|"
    r"last|latter|former|other)\b|this one|that one|the others|the (?:paper|method|approach)(?! (?:on|about|that|which|where|with|for))|the authors|"
    r"which ones|the ones|he|she|his|her)\b|"
    # "what's the effective parameter count there": the paper just shown ("what's there?" is the index)
    + THERE_POINTER
    # "which is evaluated on vision tasks?", "which needs no extra model?": a choice among those in focus.
    + r"|^\W*(?:and\s+|so\s+)?which\s+(?:is|are|was|were|has|have|does|do|did|needs?|uses?|requires?|one)\b",
    re.IGNORECASE,
)
# A follow-up that names a new subject: "And the multi-task benchmark paper?", "What about the Poisson solver?"
# "ok what about the chatbot side, ...": a word that only takes a breath may come first
NEW_SUBJECT = re.compile(
    r"^\W*(?:(?:ok|okay|so|alright|hmm)\W+)?(?:and|also|what about|how about|and what about|then|now|next)\b",
    re.IGNORECASE,
)
_KEYWORDS_ONLY = re.compile(r"^[^?]{1,70}$")
# "vision side: self-supervised pretraining for images, or making ViTs fast on phones?", "what about neural
# PDE solvers / operator learning": subjects named side by side, no question asked of them; every paper
# on either (c659.4 and c665.2 were read as lookups and gave one paper of one subject)
_SUBJECTS_ONLY = re.compile(
    # no question asked anywhere ("the label noise sgd / sharpness paper - what does the trained net end up
    # looking like" asks of one paper), and no one thing wanted ("something that works in 3d scenes / can act
    # like a robot" is one paper told two ways: c374.2 listed a robot-skills paper beside LEO)
    r"^(?!.*\b(?:which|what|who|whom|whose|how|why|when|where|is|are|does|do|did|can|could|would|should|was|were|has|"
    r"have|tell|explain|describe|compare|something|one|a paper|the paper)\b)[^?.;:]{3,100}?(?:,\s*or\b|\s/\s)"
    r"[^?.;:]{3,100}\??\s*$",
    re.IGNORECASE,
)
_ASKING_FRAME = re.compile(r"^\W*(?:(?:ok|okay|so|and|then)\W+)*(?:what|how) about\s+", re.IGNORECASE)


def _bare(question: str) -> str:
    """``question`` less what only opens it: a greeting, a change of subject, "what about", the field ("vision side:")."""
    return SIDE_PREFACE.sub("", _ASKING_FRAME.sub("", _GREETING.sub("", TOPIC_CHANGE.sub("", question))), count=1)


_ASKED_AFTER = re.compile(r"[,:;–—-]\s*(?:which|what|who|how|does|do|did|is|are|any)\b", re.IGNORECASE)
_QUESTION_START = re.compile(
    r"^\W*(?:which|what|who|whom|whose|how|why|when|where|is|are|does|do|did|can|could|"
    r"would|should|tell|explain|describe|give|show|find|list|summari[sz]e|i|any|was|were|has|have)\b",
    re.IGNORECASE,
)
_NAME = r"[A-Z][\w'-]+(?:\s+[A-Z]\.?)?(?:\s+[A-Z][\w'-]+)+"  # two or more capitalised words
_BY_NAME = re.compile(
    rf"(?:^\W*[Bb]y|\b(?i:papers?|work|anything|published|written|publications?)\s+by)\s+{_NAME}|"
    rf"\b{_NAME}'s\s+(?i:papers?|work|group|lab|icml|publications?)\b|"
    rf"\b(?i:what (?:did|has|is))\s+{_NAME}\s+(?i:work|publish|written|wrote|do)"
)
# Forms that ask for one person's papers, with the name as written ("by Bengio", "Kolter's group",
# "what did Wilson work on", "did Schonlieb write"): they let a surname alone, or a name written
# with more or fewer middle names than the index has, name an author.
_NAME_TOKENS = r"[A-Z][\w'-]+(?:\s+[A-Z]\.?(?=\s))?(?:\s+[A-Z][\w'-]+){0,3}"
_AUTHOR_CUE = re.compile(
    rf"(?:^\W*|\b(?i:papers?|work|anything|published|written|publications?|posters?|from|everything)\s+)(?i:by|from)\s+(?P<a>{_NAME_TOKENS})|"
    rf"\b(?P<b>{_NAME_TOKENS})'s?\s+(?i:papers?|work|group|lab|icml|publications?|posters?|team)\b|"
    rf"\b(?i:what (?:did|has|have|is|was))\s+(?P<c>{_NAME_TOKENS})\s+(?i:work|publish|written|wrote|do|been|working)|"
    rf"\b(?i:did|has)\s+(?P<d>{_NAME_TOKENS})\s+(?i:write|publish|author|present)|"
    rf"^\W*(?P<e>{_NAME_TOKENS})\s+(?i:papers|posters|publications)\W*$|"
    # "does hardt have any other paper in here?": typed in lower case, a surname only one author has
    r"(?i:\b(?:does|did|has)\s+(?P<f>[a-z][\w'-]+)\s+(?:have|got)\s+(?:any|a|another|other|more)\s+"
    r"(?:other\s+|more\s+)?(?:papers?|works?|posters?|publications?)\b)|"
    # "hardt has a few others in this set right?": the same, said as a statement (c299.3)
    r"(?i:^\W*(?P<g>[a-z][\w'-]+)\s+(?:has|had|got)\s+(?:a few|a couple|some|several|more|other|two|three)\s+"
    r"(?:other\s+|more\s+)?(?:others|papers?|works?|posters?|publications?)\b)|"
    # "anything else in here by hardt?": the same, asked past the paper shown
    r"(?i:\b(?:anything|something|what)\s+else\s+(?:(?:in\s+)?here\s+|in\s+(?:this|the)\s+\w+\s+)?(?:by|from)\s+"
    r"(?P<h>(?!(?:them|him|her|these|those|that|this|the)\b)[a-z][\w'-]+)\b)|"
    # "list all of hardt's papers in the index": a surname in lower case, with its papers (c413.4)
    r"(?i:\b(?P<i>(?!(?:its|it|their|his|her|everyone|someone|anyone|one|other|each|that|this)(?:'s|’s))[a-z][\w-]+)(?:'s|’s)\s+"
    r"(?:other\s+)?(?:papers|works|publications|posters)\b)|"
    # "any other papers w/ Hardt on them?": papers with a name on them, or with it as an author (c523.4)
    r"(?i:\b(?:papers?|works?|anything|posters?|publications?)\s+(?:w/|with)\s+"
    r"(?P<j>(?!(?:them|him|her|these|those|that|this|the|a|an|code|data)\b)[a-z][\w'-]+)\s+"
    r"(?:on\s+(?:them|it|there)|as\s+(?:an?\s+)?(?:co-?)?authors?)\b)|"
    # "is hardt on any other paper in here?": a name on papers, asked in lower case (c571.4 was refused)
    r"(?i:^\W*(?:(?:and|so|also)\s+)?(?:is|was)\s+(?P<k>(?!(?:it|this|that|there|he|she|anyone|someone|one)\b)"
    r"[a-z][\w'-]+)\s+(?:also\s+)?(?:on|an?\s+(?:co-?)?author\s+(?:on|of))\s+(?:any|a|another|other|more|some)\s+"
    r"(?:other\s+|more\s+)?(?:papers?|works?|posters?|publications?)\b)"
)
_QUESTION_WORDS = set(
    tokenize(
        "which what any list show there papers paper deal dealing apply applying use using "
        "about related focus focused tell me give"
    )
)
# Words of area labels that say nothing about the topic on their own.
_GENERIC_AREA_WORDS = set(
    tokenize(
        "learning machine deep models other everything else general techniques aspects "
        "miscellaneous applications statistics methods theory optimization"
    )
)

KINDS = ("lookup", "list", "compare", "attribute", "quantity", "authors_of", "papers_by", "area")


@dataclass
class Intent:
    """What kind of question this is (one of ``KINDS``) and what it names."""

    kind: str
    authors: list[str] = field(default_factory=list)
    area: str = ""
    targets: list[str] = field(default_factory=list)  # for compare: the things named


def asks_area(question: str) -> bool:
    """Does the question ask for a subject area ("... and what is the area?")?"""
    return _AREA_ASK.search(question) is not None


def detect(question: str, papers: Sequence[StoredPaper], focus: int = 0) -> Intent:
    """Classify ``question`` by the answer shape it needs, given how many papers the previous answer
    was about (``focus``) and the names and areas the index knows.

    Order matters: names first (an author named in a list question still asks for that author's
    papers), then the explicit forms (compare, area, quantity), then follow-ups about the papers
    in focus, then lists; everything else is a lookup.
    """
    folded = fold(question)
    # "does the poisson one release code?": a paper in focus named by a word, asked for its code
    points = focus > 0 and bool(
        FOCUS_POINTER.search(question) or (ASKS_CODE.search(question) and NAMING_ONE.search(question))
    )
    named = _known_authors(folded, papers, question)
    if (named or (_BY_NAME.search(question) and not points)) and not re.search(r"\bwho\b", question, re.IGNORECASE):
        return Intent("papers_by", authors=named)
    if (
        _WHO_WROTE.search(question)
        # "compare them - do they share authors?" compares; "same author has another paper?" asks for it
        or (SHARED_AUTHORS.search(question) and not COMPARE.search(question) and not PAST_SHOWN.search(question))
        or (_AUTHORS_WORD.search(question) and len(question.split()) <= 6)
    ):
        return Intent("authors_of")
    if COMPARE.search(_DIFFER_CLAUSE.sub(" ", question)) and not (
        _LIST.search(question)
        and not points
        and not re.search(r"\b(?:compare|contrast|differ)", question, re.IGNORECASE)
    ):
        return Intent("compare", targets=compare_targets(question))
    if _AREA_ASK.search(question) and not points:
        return Intent("area", area=_known_area(folded, papers))
    if QUANTITY.search(question):
        return Intent("quantity")
    if focus and OTHER_KIND.search(question):
        return Intent("list")
    if focus and _NEW_PAPER.search(question):
        return Intent("list" if re.search(r"\bpapers\b", question, re.IGNORECASE) else "lookup")
    if focus and not points and (ASKS_A_PAPER.search(question) or _ANY_SUBJECT_WORK.match(question)):
        return Intent(
            "list"
            if re.search(r"\b(?:papers|works|studies|abstracts|posters)\b", question, re.IGNORECASE)
            else "lookup"
        )
    if focus and not points and NEW_SUBJECT.search(question) and len(asked_terms(question)) >= 2:
        # "and the paper on weight dynamics?": a new paper, named by its topic; "what about neural PDE
        # solvers / operator learning": two subjects, every paper on them
        return Intent("list" if _SUBJECTS_ONLY.match(_bare(question)) else "lookup")
    if focus and (points or needs_context(question) or len(asked_terms(question)) <= 2 and not named_terms(question)):
        return Intent("attribute")
    # "switching gears: optimal transport / wasserstein papers?": the preface is no part of the request
    # (c518.4 was read as a lookup, which weighs five papers, not twelve)
    bare = _GREETING.sub("", TOPIC_CHANGE.sub("", question))
    if _LIST.search(bare) and not _SINGLE_PAPER.search(bare):
        return Intent("list")
    if _SUBJECTS_ONLY.match(_bare(question)) and not _SINGLE_PAPER.search(question):
        return Intent("list")
    # "speeding up inference for generative models - llm decoding or diffusion sampling, whatever's in here":
    # a topic narrowed to two kinds, either welcome, asks for the papers of both (c671.1 was read as a lookup)
    if NARROWING.search(question) and not _SINGLE_PAPER.search(bare):
        return Intent("list")
    if (
        _KEYWORDS_ONLY.match(question)
        and not _QUESTION_START.search(question)
        # "connect later, what datasets": a paper's name, then the question asked of it (c410.2 listed it)
        and not _ASKED_AFTER.search(question)
        and len(question.split()) <= 6
    ):
        return Intent("list")  # "backdoor attacks and defenses": keywords name a topic, not one paper
    return Intent("lookup")


# What a comparison target is when it points at papers in focus ("the first one", "them") rather than naming one.
POINTER_TARGET = re.compile(
    r"^(?:it|its|this|that|they|them|these|those|this one|that one|(?:the )?(?:first|second|"
    r"third|other|last|former|latter)(?: one| paper)?|(?:the )?(?:two|three)(?: of them)?|both|"
    r"each other)$",
    re.IGNORECASE,
)


# "Tell me about DoraemonGPT and LEO", "what do MeZO-SVRG and C-SOBA do?": one question about
# several things it names; they are papers when each names one (checked against the index).
_ABOUT_SEVERAL = re.compile(
    r"^\W*(?:(?:please\s+)?(?:can you\s+)?(?:tell me|talk)\s+about|what (?:are|is)|summari[sz]e|describe|"
    r"explain|give me an overview of|what do|what does)\s+(?P<body>[^?]+?)(?:\s+(?:do|does|propose|about))?\W*$",
    re.IGNORECASE,
)


# "Who wrote X and Y?", "X and Y: who wrote them?"
_AUTHORS_OF_SEVERAL = re.compile(
    r"^\W*(?:who (?:wrote|authored|are the authors of)|(?:list |give me |name )?the authors of)\s+(?P<body>[^?:]+?)\W*$|"
    r"^\W*(?P<lead>[^?:]+?)\s*[:;,]\s*who (?:wrote|authored|are the authors of) (?:them|these|both|each)\W*$",
    re.IGNORECASE,
)


def several_named(question: str) -> list[str]:
    """The two to four things a question about several named things names ("Tell me about X and
    Y" -> [X, Y]); empty for any other question."""
    authors = _AUTHORS_OF_SEVERAL.match(question.strip())
    if authors:
        question = f"tell me about {authors.group('body') or authors.group('lead')}"
    found = _ABOUT_SEVERAL.match(question.strip())
    if not found or not re.search(r"\s(?:and|&)\s|,", found.group("body")):
        return []
    parts = [
        re.sub(r"^(?:the|a|an)\s+", "", p.strip(" ?.,"), flags=re.IGNORECASE)
        for p in re.split(r"\s+(?:and|&)\s+|\s*,\s*(?:and\s+)?", found.group("body"))
        if p.strip(" ?.,")
    ]
    return parts if 2 <= len(parts) <= 4 and all(len(p.split()) <= 6 for p in parts) else []


# Words that name nothing: what is left of "how are they different?" or "what are the differences?"
# once the comparison is cut out of it.
_NAMES_NOTHING = set(
    tokenize(
        "they them it its this that these those what which how are is was were do does the a an and or "
        "different differences difference differ each other both one ones two papers paper between"
    )
)


def named_targets(intent: Intent) -> list[str]:
    """The comparison targets that name a paper or topic, without those that point at papers in focus."""
    return [t for t in intent.targets if not POINTER_TARGET.match(t.strip()) and not set(tokenize(t)) <= _NAMES_NOTHING]


_APPOSITIVE = re.compile(
    r"(\b[A-Z][\w&+-]*),\s+(?:the|an?)\s+(?:[a-z][\w-]*\s*){1,5}?(?:,(?=\s+and\s))?(?=[?.!]*\s*$|,|\s+and\s)"
)


def compare_targets(question: str) -> list[str]:
    """The two to four things a comparison question names ("compare X and Y" -> [X, Y])."""
    one = COMPARE_WITH_ONE.match(question.strip())
    if one:
        # "compare w the hare and tortoise paper - same benchmarks?": the paper in focus, and the one
        # named, whole ("and" inside a name divides nothing here)
        other = _COMPARE_CUT.split(one.group("other"), maxsplit=1)[0]
        # "compare it w/ the di-skill one, what envs do they each test on": the question after the comma
        # names no side (c514.4 took a third paper for its words)
        other = re.split(
            r",\s*(?=(?:what|which|how|who|where|when|why|do|does|did|is|are)\b)",
            other,
            maxsplit=1,
            flags=re.IGNORECASE,
        )[0]
        other = other.strip(" ?.,")
        other = re.sub(r"^(?:the|a|an)\s+", "", other, flags=re.IGNORECASE)
        if len(other) >= 2:
            return ["it", other]
    body = _COMPARE_LEAD.sub("", re.sub(r"^\W*\w+[,;]\s*|\s+then\W*$", "", question.strip()))
    # "how is position-attention different from normal self attention, and how does it compare to
    # FNO": the usual thing set against is no side; "it" is the thing named first (c397.2)
    body = re.sub(FROM_THE_USUAL + r"[^,;?]*", " ", body, flags=re.IGNORECASE)
    body = re.sub(
        r"\s*,?\s+and\s+how\s+(?:does|do|is|are)\s+(?:it|they|that|this)\s+(?:compare|stack up|fare)\s+(?:to|with|against)\s+",
        " vs ",
        body,
        flags=re.IGNORECASE,
    )
    body = re.sub(r"\s+(?:differs?|is different|are different|different) from\s+", " and ", body, flags=re.IGNORECASE)
    # "how does DARL's noise schedule compare with normal image diffusion": both sides, not the first alone
    body = re.sub(r"\s+(?:compares?|stacks? up|fares?)\s+(?:with|to|against)\s+", " vs ", body, flags=re.IGNORECASE)
    body = _COMPARE_CUT.split(body, maxsplit=1)[0]
    # "DoraemonGPT differ from LEO, the embodied generalist agent?": the words after a name say what it is
    body = _APPOSITIVE.sub(r"\1", body)
    body = re.sub(r"^(?:the )?(?:papers?|methods?)\s+", "", body, flags=re.IGNORECASE)
    # "Compare Hare and Tortoise with Provable Contrastive Continual Learning": "with" divides two
    # names, either of which may hold an "and".
    strong = [p.strip(" ?.,") for p in _COMPARE_STRONG.split(body) if p and p.strip(" ?.,")]
    parts = (
        strong
        if len(strong) == 2 and "," not in body and " and " in strong[0] and " and " not in strong[1]
        else [p.strip(" ?.,") for p in _COMPARE_SPLIT.split(body) if p and p.strip(" ?.,")]
    )
    if len(parts) < 2:
        parts = [p.strip(" ?.,") for p in _COMPARE_TO.split(body) if p and p.strip(" ?.,")]
    parts = [re.sub(r"^(?:the|a|an)\s+", "", p, flags=re.IGNORECASE) for p in parts]
    return [p for p in parts if len(p) >= 2][:4]


@dataclass
class _Names:
    """Author names (folded -> as written) and area labels known to an index snapshot."""

    authors: dict[str, str]
    longest: int  # most words in one author name
    areas: dict[str, str]
    area_words: dict[str, set[str]]  # stemmed telling word -> area segments that contain it
    by_last: dict[str, set[str]] = field(default_factory=dict)  # folded surname -> names as written
    by_first_last: dict[tuple[str, str], set[str]] = field(default_factory=dict)  # (a given name, surname) -> names


_NAMES_CACHE: dict[int, tuple[Sequence[StoredPaper], _Names]] = {}


def _names(papers: Sequence[StoredPaper]) -> _Names:
    """Built once per snapshot (the snapshot list is replaced, never mutated, when the index changes)."""
    cached = _NAMES_CACHE.get(id(papers))
    if cached is not None and cached[0] is papers:
        return cached[1]
    authors: dict[str, str] = {}
    areas: dict[str, str] = {}
    area_words: dict[str, set[str]] = {}
    for stored in papers:
        for author in stored.paper.authors:
            folded = " ".join(re.findall(r"\w+", fold(author)))
            if len(folded) > 4 and " " in folded:
                authors.setdefault(folded, author)
        for segment in stored.paper.area.split("·") if stored.paper.area else []:
            if len(segment.strip()) > 3:
                areas.setdefault(" ".join(re.findall(r"\w+", fold(segment))), segment.strip())
                for word in set(tokenize(segment)) - _GENERIC_AREA_WORDS:
                    area_words.setdefault(word, set()).add(segment.strip())
    names = _Names(authors, max((k.count(" ") + 1 for k in authors), default=0), areas, area_words)
    _index_name_parts(names)
    _NAMES_CACHE.clear()  # only the live snapshot matters
    _NAMES_CACHE[id(papers)] = (papers, names)
    return names


def _index_name_parts(names: _Names) -> None:
    """Surnames and (given name, surname) pairs of every indexed author, so that "Zico Kolter"
    finds "J. Zico Kolter" and "Andrew Gordon Wilson" finds "Andrew Wilson"."""
    for folded, written in names.authors.items():
        words = folded.split()
        names.by_last.setdefault(words[-1], set()).add(written)
        for given in words[:-1]:
            if len(given) > 1:  # an initial says too little
                names.by_first_last.setdefault((given, words[-1]), set()).add(written)


def _phrases(folded_question: str, longest: int) -> list[str]:
    words = re.findall(r"\w+", folded_question)
    return [" ".join(words[i : i + n]) for n in range(longest, 0, -1) for i in range(len(words) - n + 1)]


def asks_for_authors_papers(question: str) -> bool:
    """Does ``question`` ask for someone's papers in one of the forms of ``_AUTHOR_CUE``?"""
    return _AUTHOR_CUE.search(question) is not None


def _known_authors(folded_question: str, papers: Sequence[StoredPaper], question: str = "") -> list[str]:
    """Indexed authors the question names: a full name anywhere, else, in a question that asks for
    someone's papers, a name written with other middle names, or a surname only one author has."""
    names = _names(papers)
    found = [names.authors[p] for p in _phrases(folded_question, names.longest) if p in names.authors]
    if found or not question:
        return list(dict.fromkeys(found))
    cue = _AUTHOR_CUE.search(question)
    return _loose_author(fold(next(g for g in cue.groups() if g)), names) if cue else []


def _loose_author(mention: str, names: _Names) -> list[str]:
    """The indexed authors a name written loosely can only mean: the same given name and surname
    (other middle names or initials), else the only author with that surname."""
    words = re.findall(r"\w+", re.sub(r"'s?$", "", mention))  # "Kolter's group" names Kolter
    if not words:
        return []
    if len(words) >= 2:
        return sorted(names.by_first_last.get((words[0], words[-1]), set()))
    only = names.by_last.get(words[0], set())
    return sorted(only) if len(only) == 1 else []


def _known_area(folded_question: str, papers: Sequence[StoredPaper]) -> str:
    """The subject area the question asks about: a label named in full, else the label sharing
    the most telling words with the question ("privacy" -> "Privacy-preserving Statistics ...")."""
    names = _names(papers)
    longest = max((k.count(" ") + 1 for k in names.areas), default=0)
    matches = [names.areas[p] for p in _phrases(folded_question, longest) if p in names.areas]
    matches = [
        m for m in matches if set(tokenize(m)) - _GENERIC_AREA_WORDS
    ] or matches  # "Physics" over "Deep Learning"
    if matches and (len(matches) == 1 or set(tokenize(matches[0])) - _GENERIC_AREA_WORDS):
        return max(matches, key=len)
    words = set(tokenize(folded_question)) - _QUESTION_WORDS
    votes: dict[str, int] = {}
    for word in words:
        for segment in names.area_words.get(word, ()):
            votes[segment] = votes.get(segment, 0) + 1
    if not votes:
        return ""
    best = max(votes, key=lambda seg: (votes[seg], -len(seg)))
    # Most of what the question is about must be the area, not one shared word ("language" in an RLHF question).
    return best if votes[best] / len(words) >= 0.3 else ""
