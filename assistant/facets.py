"""The kind of fact a question asks about each paper, and the sentences that state that kind.

"What applications does each show?", "what's the main finding of each?", "which of them is
purely theoretical?": the asked words ("applications", "finding") rarely occur in the sentence
that answers ("we showcase ... text-to-speech", "we show it's best to spend the budget on a
single label"). A facet pairs the question's wording with the cues of an answering sentence, so
the evidence is the sentence that states the fact, not the one that repeats the question's word.
Word-level and deterministic, like the rest of the evidence code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.text import tokenize


@dataclass(frozen=True)
class Facet:
    """One kind of asked fact: how a question asks for it, and how a sentence states it."""

    name: str
    asks: re.Pattern[str]
    states: re.Pattern[str]
    background_ok: bool = False  # may a scene-setting sentence answer ("used in domains including ...")?
    words: frozenset[str] = frozenset()  # question words the facet stands for (not looked up literally)
    # Said only of the paper's own work, after its contribution; when no sentence states it, the
    # abstract does not say (the limitations of earlier work are not this paper's).
    own_only: bool = False
    # Said of earlier work, before the paper's contribution ("has several limitations. It requires ...").
    prior_only: bool = False


# "Which LLM", "what base model": the model a paper builds on, asked by its kind (its name answers).
ASKS_MODEL_KIND = r"(?:which|what) (?:LLMs?|(?:large )?language models?|base models?|backbones?)"


# "the theory one:", "that speech synthesis one": a paper pointed at by a word, which asks nothing
# ("the theory one" asks for no proof); "the faster one" compares.
NAMING_ONE = re.compile(
    r"\b(?:the|that|this) (?![\w-]+(?:er|est) )(?:[a-z][\w-]{3,} |[a-z]{2,3} ){1,2}(?:one|paper|thing)\b"
)


# "do they share code?", "is the code out?", "does the poisson one release code?": whether and where
# the code is; not "code completion"
ASKS_CODE = re.compile(
    r"\b(?:github|repo(?:sitory)?|download|open[- ]sourced?|releas\w*)\b|\bwhere\b.*\bcode\b|"
    r"\b(?:put out|publish\w*|shares?|provides?|gives?|has|have|with|is|are|was|were|any|a|about)\s+"
    r"(?:(?:the|their|its|any|some)\s+)?code\b|"
    r"\bcode\b.*\b(?:available|online|public|out|link)\b|"
    # "which one has experiments n code?": code asked beside another thing (c448.3 looked for the phrase)
    r"\b(?:and|or|&|\+)\s+code\b(?!\s+(?:completion|generation|models?|tasks?))",
    re.IGNORECASE,
)


# "different from normal self-attention": one paper set against the usual thing, not a second paper
FROM_THE_USUAL = (
    r"\b(?:differ(?:s|ent)?|distinct)\s+from\s+(?:the\s+)?(?:normal|standard|regular|vanilla|classical|classic|"
    r"usual|plain|ordinary|conventional|traditional)\b"
)

# "whats different from earlier neural granger methods": what the earlier work lacks that the paper
# fixes, asked of that one paper (c658.2 compared it with two papers found for "earlier methods")
FROM_EARLIER = (
    r"\b(?:differ(?:s|ent)?|distinct|new)\s+(?:from|compared (?:to|with)|vs\.?|versus)\s+(?:the\s+)?(?:earlier|existing|"
    r"prior|previous|older|past)\b"
)


def _p(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_EVALUATION_CUES = (
    # "The map M can be either evaluated pointwise": computed, not tested.
    r"experiments?|experimental|benchmarks?|datasets?|(?<!\bbe )(?<!\beither )evaluat\w+|empirical(?:ly)?|"
    # "We illustrate possible applications ... to non-convex optimization problems": what it shows working
    r"simulat\w+|real[- ]world|synthetic|we (?:validate|test|apply|train|illustrat)\w*|tested|"
    r"when appl(?:y|ying|ied)|applying [\w-]+ (?:to|on|for|with)|"
    # "We show on challenging robot simulation tasks that Di-SkilL can learn ..." (c589.2)
    r"we (?:show|demonstrate) on|"
    # ("Theoretical analysis demonstrates our method ... can yield a tighter bound" tests nothing, c584.2)
    r"(?<!analysis )(?<!theory )(?<!proof )(?:demonstrat|validat)\w+ (?:on|in|that|the|its|our)|state-of-the-art|"
    r"outperform\w*|"
    r"tasks? (?:across|such|including|on)"
)

# Where a method is applied and what it is able to do: the applications facet's own cues, which also tell a
# scene-setting sentence naming uses from one with only a word of evaluation (evidence.stating)
APPLIED_CUES = (
    r"applications?|appl(?:y|ies|ied|ying)|use cases?|including|such as|arise in|domains?|"
    # "We highlight the model's ability to: (a) perform bottom-up synthesis planning ..." (c593.4)
    r"abilit(?:y|ies) to|capable of"
)

# "what problem is it really solving?": the problem asked by name
_PROBLEM_SOLVED = _p(
    r"\bwhat (?:\w+ )?(?:problems?|challenges?|issues?) (?:is|are|does|do|did) (?:it|they|this|that|each)(?: \w+)?"
    r"(?: (?:really|actually|even))? (?:solv|address|tackl|tak(?:e|es|ing) on|go(?:es|ing)? after|fix)\w*"
)


FACETS: tuple[Facet, ...] = (
    Facet(
        "evaluation",
        _p(
            r"\b(?:datasets?|benchmarks?|test(?:s|ed)? (?:it |them )?(?:on|with)|evaluat\w*|experiments?|experimental\w*|"
            r"empirical\w*|what data\b|which data\b|tasks? (?:do|does|did|are|is|they|it)|what tasks|which tasks|"
            # "which envs did the robust one use?" (c604.2)
            r"(?:what|which) (?:envs?|environments?)\b|"
            r"validat\w*|real[- ]world|baselines?|compar\w* (?:it |them |themselves )?against\b|against what)"
        ),
        _p(rf"\b(?:{_EVALUATION_CUES})(?!\w)"),  # "experiments", not "experimentation"
        words=frozenset(
            tokenize(
                "dataset datasets benchmark benchmarks test tested tests evaluate evaluates "
                "evaluated evaluation experiment experiments experimental experimentally empirical empirically data "
                "task tasks validate validated real world run runs compare compares against "
                # "what envs do they each test on": the environments are named, not looked up as a word
                # (c514.4 gave Di-SkilL's "the environment's unknown context" sentence)
                "environment environments"
            )
        ),
    ),
    Facet(
        "applications",
        _p(
            r"\b(?:applications?|applied to|appl(?:y|ies) (?:it|to)|use cases?|used for|uses? (?:it|them) for|"
            # "what would i actually use the polar factorization thing for" (c655.3 restated the theorem)
            r"(?:would|could|can|might|should) (?:i|we|you|one) (?:\w+ )?use\b[^?]{0,60}\bfor\W*$|"
            # "what's the model and what can it do" (c610.3 gave the model alone)
            r"what can (?:it|they|each|the model|the method)(?: \w+)? do|"
            # "what problems does the other one target": the problems it is for (c730.3 looked up "target")
            r"what (?:kinds? of |sorts? of )?(?:problems|tasks|domains|settings) (?:does|do|did) [^?]{1,40}?\btarget|"
            r"(?:useful|good) for)\b"
        ),
        _p(
            rf"\b(?:{APPLIED_CUES}|showcas\w+|real[- ]world|effective for|parameter estimates for|{_EVALUATION_CUES})\b"
        ),
        background_ok=True,
        words=frozenset(tokenize("application applications applied apply use uses used case cases target problems")),
    ),
    Facet(
        "findings",
        _p(
            # ("what practical method results from the analysis": a verb, asking the method; c656.2 got a finding)
            r"\b(?:findings?|find|found|results?(?!\s+(?:from|in)\b)|conclu\w+|takeaways?|claims?|what (?:does|do) (?:each|it|they) "
            # ("and the llm one, what did it report on?": the past tense too; c751.4 gave its method sentence)
            r"show|what (?:does|do|did) (?:[\w-]+ ){1,3}report|main (?:point|message|insight)|discover\w*|"
            r"insights?|"
            # "by how much do they win?", "what does it beat?": the result against what it is compared with
            r"wins?|won|beats?|outperform\w*|how much better|"
            # "what datasets + how much longer context does it get" (c482.4 gave no dataset): a gain in size
            r"how (?:much|many times) (?:longer|faster|larger|bigger|more|fewer|less|smaller)|"
            # "how good is it?", "how well does it do?": how it performs, which the results say
            r"how (?:good|well) (?:is|are|was|were|does|do|did)|how (?:does|do|did) (?:it|they) (?:do|perform|fare)|"
            # "numbers vs MeZO?": the results said in figures
            r"numbers|figures|stats|"
            # "do transformers give better policy gradients or not": what the paper found (c463.4)
            r"or not)\b"
        ),
        _p(
            r"\b(?:we (?:\w+ )?(?:show|find|prove|demonstrate|reveal|observe|establish|discover)\w*|"
            # "Our main technical result establishes an approximation ...": the result, named as such
            r"(?:our|the) main (?:\w+ )?(?:results?|findings?) \w+|"
            r"(?:results?|experiments?|analysis|evidence) (?:show|demonstrate|reveal|indicate|suggest|confirm|"
            r"highlight)\w*|reveals?|trade-?off|outperform\w*|achiev\w+|it(?:'|’)s best|best to|beats?|"
            r"counter to|superior|remarkabl\w+|significant\w*|recommend\w*|implications?|speeds? up|"
            r"\d+(?:\.\d+)?\s*(?:x|×|%|times))(?!\w)"
        ),
        words=frozenset(
            tokenize(
                "finding findings find found result results conclusion conclusions claim "
                "claims takeaway takeaways show shows main point message insight insights "
                "recommend recommends recommendation recommendations discover win wins won beat beats "
                "outperform outperforms better numbers figures stats good well perform performs fare"
            )
        ),
    ),
    Facet(
        "recommendation",
        # "so majority voting across annotators is a waste?" (c299.2 was given the scene-setting)
        _p(
            # (not "recommender systems", a field: c620.4 asked it of the papers shown and not the index)
            r"\b(?:recommend(?!ers?\b|ation systems?\b)\w*|advice|advis\w+|should (?:i|we|one|you)|best practices?|"
            r"(?:a|is it) waste|worth it|better off)\b"
        ),
        # "we show it's best to spend the budget on collecting a single label for more samples"
        _p(r"\b(?:(?:it(?:'|’)s|is) best|best to|better to|should|recommend\w*|advisable|we suggest|instead of)\b"),
        words=frozenset(
            tokenize("recommend recommends recommendation recommendations advice advise should best practice")
        ),
    ),
    Facet(
        "problem",
        # "what problem is it really solving?": the challenge the paper names before its answer to it, not
        # its field's first sentence (c737.2 got a results sentence; "Nevertheless, personalized features
        # are closely entangled with spurious features ..." is the problem FedPIN takes on)
        # (only when asked by name: "what is the atari one trying to fix" keeps its opening, c598.2)
        _PROBLEM_SOLVED,
        _p(
            # (not "problem" or "challenging" alone: "can tackle the challenging OOD generalization problem" is
            # the field's, said before the paper's own difficulty)
            r"\b(?:challenges?|nevertheless|however|entangled|conflict\w*|difficult(?:y|ies)|bottlenecks?|"
            r"struggl\w*|suffer\w*|lack\w*|limited|fail\w*|remains? (?:an )?open)\b"
        ),
        background_ok=True,
        words=frozenset(
            tokenize("problem problems challenge challenges issue issues solve solving fix tackle address")
        ),
    ),
    Facet(
        "prior_limitations",
        # "What drawbacks of earlier work does it list?": the shortcomings a paper names in the work
        # it improves on, said before its contribution.
        _p(
            FROM_EARLIER + "|"
            r"\b(?:limitations?|weakness\w*|drawbacks?|shortcomings?|problems?|issues?|gaps?)\s+(?:of|with|in)\s+"
            # "what problems with original pufferfish does it try to fix" (c683.2 restated the extension); not
            # "the limitation of the basic algorithm", the paper's own first one (c647.2)
            r"(?:the\s+)?(?:earlier|existing|prior|previous|current|older|other|original|vanilla|standard|plain)\b|"
            # "what's the issue with policies that the skills paper points out": a problem the paper
            # names in what it improves on (c557.4 got its method sentence)
            r"\b(?:issues?|problems?|limitations?|drawbacks?)\s+(?:with|of)\s+[\w\s-]{1,40}?(?:\s+(?:that|which))?\s+"
            r"[\w\s-]{0,40}?\b(?:points? out|identif\w+|highlights?|raises?|notes?|names?)\b|"
            # "why not just use standard Pufferfish?", "why isn't plain fine-tuning enough?"
            r"\bwhy not (?:just |simply )?(?:use|apply|do|take)\b|"
            # "what does it capture that earlier methods miss?": what earlier work leaves out (c715.2 looked
            # up "capture" and said the abstract does not mention it)
            r"\b(?:earlier|existing|prior|previous|older|other|current) (?:methods?|approaches|work|models|explainers?|"
            r"techniques) (?:miss|overlook|ignore|neglect|lack|fail to)\b|"
            # "what's wrong with earlier neural GC methods according to them" (c670.2 got the method sentence)
            # "what do they say is wrong with earlier neural GC methods" (c700.3 got the method sentence)
            r"\bwhat(?:\s+(?:do|does|did)\s+(?:they|it|the authors|the paper)\s+(?:say|think|claim|argue|find))?"
            r"(?:'s| is| was| are| were) wrong with (?:the\s+)?(?:earlier|existing|prior|previous|current|older|"
            r"other|standard|usual|common|conventional|traditional)\b|"
            r"\bwhy (?:isn't|is not|aren't|are not|doesn't|does not|don't|do not)\b.*\b(?:enough|sufficient|suffice|work)\b|"
            # "why a Jacobian regularizer instead of the usual approach?"
            # "why a mixture of experts instead of a regular policy?": the plain kind the paper departs from
            r"\bwhy\b.*\b(?:instead of|rather than|over) (?:the |a |an )?(?:usual|standard|existing|common|conventional|"
            r"classic|classical|traditional|typical|previous|prior|earlier|regular|plain|vanilla|ordinary|simple)\b"
        ),
        _p(
            r"\b(?:however|limitations?|limited|lack\w*|drawbacks?|challeng\w*|suffer\w*|fail\w*|cannot|unable|"
            r"inefficien\w*|hinder\w*|overlook\w*|costly|expensive|impractical|prohibitive\w*|"
            # "generic data augmentations ..., which may not work for all distribution shifts"
            r"(?:may|might|does|do) not (?:\w+ )?(?:work|help|hold|generali[sz]e|transfer|suffice))\b"
        ),
        background_ok=True,
        words=frozenset(
            tokenize(
                "limitation limitations weakness weaknesses drawback drawbacks shortcoming shortcomings problem "
                "problems issue issues gap gaps earlier existing prior previous current older work works method methods "
                "instead usual standard common conventional classic classical traditional typical approach approaches "
                # "what shortcomings of earlier methods does it aim to fix": the fix is the paper, not a word to find
                "fix fixes aim aims address addresses overcome overcomes wrong according"
            )
        ),
        prior_only=True,
    ),
    Facet(
        "limitations",
        # "what's the catch with C-SOBA?"
        _p(r"\b(?:limitations?|weakness\w*|drawbacks?|shortcomings?|downsides?|caveats?|fail\w*|the catch)\b"),
        # Only the paper's word for its own shortcoming: "does not rely on" is a strength, and "only
        # when equipped with preconditioners" is said of earlier solvers.
        _p(
            r"\b(?:(?:our|its|this|the proposed) (?:\w+ )?(?:method|approach|model|analysis)(?:'s)? (?:is )?"
            r"(?:limited|restricted)|limitations? of (?:our|this|the proposed)|(?:is|are) limited to|fails? to|"
            r"at the (?:cost|expense) of|remains? (?:an )?open|future work|drawbacks? of (?:our|this)|"
            # "We first propose C-SOBA ... However, it relies on strong assumptions on bounded gradients."
            r"however, (?:it|this|they) (?:relies|rely|requires?|assumes?|depends?|needs?|suffers?) )\b"
        ),
        words=frozenset(
            tokenize(
                "limitation limitations weakness weaknesses drawback drawbacks shortcoming shortcomings downside downsides caveat caveats catch"
            )
        ),
        own_only=True,
    ),
    Facet(
        "theory",
        # "which one is game-theoretic?" names a field, looked up as asked
        # "what's the math behind it?" asks for the theory too
        _p(r"\b(?:(?<!-)theor\w+|prove[sn]?|proofs?|guarantees?|formal\w*|bounds?|convergence|provabl\w+|math\w*)\b"),
        _p(
            # "a game-theoretic model", "an information-theoretic constraint": a field's tools, not a proof
            # "the performance of the model is bounded by training losses of previous tasks": a bound, as a verb
            # "combines elements from causal inference and game theory": a field's name, not a result
            r"\b(?:prov(?:e|es|ed|en|able|ably)|proofs?|(?<!-)(?<!game )(?<!information )theor\w+|guarantee\w*|bound(?:s|ed)?|lemmas?|"
            # convergence proved ("converges to", "convergence rate", "provable ... convergence"), not a
            # goal or a measurement ("to enhance stability and convergence", "faster convergence during
            # training"; c490.4 gave MeZO-SVRG's goal as its convergence proof)
            r"converge[sd]? to|convergence (?:rates?|guarantees?|analys[ie]s|results?|properties|takes place)|"
            r"(?:provabl\w+|linear speedup) convergence|rates?|non-asymptotic|asymptotic\w*|closed-form|"
            # "Our main technical result establishes an approximation ...; we show that the tractable
            # objective has a pure Nash equilibrium": a result derived, not measured (c431.2 answered
            # "the abstract does not say" of the game-theory paper asked "which one's more theory")
            r"(?:main|key) (?:technical|theoretical) results?|(?:pure |approximate )?nash equilibri(?:um|a))\b"
        ),
        words=frozenset(
            tokenize(
                "theory theoretical theoretically prove proves proof proofs guarantee "
                "guarantees formal formally bound bounds purely provable"
            )
        ),
    ),
    Facet(
        "basis",
        # "why does that hold, what's the math behind it?": what a result follows from ("Our result
        # follows from a non-trivial application of Cramér's theorem"), not the result again
        _p(
            r"\bwhy (?:does|do|did|would|should) (?:that|this|it|they) (?:hold|work|happen|come out)\b|"
            r"\b(?:math|maths|theory|reasoning|intuition) behind\b|\bwhat(?: is|'s|’s| are) (?:it|that|this|they) based on\b|"
            # "what result is it built on?"
            r"\bwhat (?:[\w-]+ )?(?:is|are|was|were) (?:it|that|this|they|the \w+) (?:based|built|founded|grounded) on\b|"
            # "whats the key technical tool they use", "the main math tool behind it": what the results
            # rest on ("A common ingredient underlying our results is ... shift reduction lemmas", c422.2)
            r"\b(?:math(?:s|ematical)?|technical|theoretical|proof|analytic(?:al)?|key|main|core|central|common)\s+"
            r"(?:[\w-]+\s+)?(?:tools?|ingredients?|techniques?)\b|"
            # "what math do they lean on", "what math do they use" (c448.2, c452.3 quoted the main claim
            # again and left out Cramér's theorem); "is the proof based on X" is asked above
            # "what classic theorem does each of those two build on" (c554.3 gave Don't Label Twice's claim)
            r"\bwhat (?:(?:classic(?:al)?|known|standard|famous|well-known|key|main) )?(?:math|maths|mathematics|theorems?|"
            r"proof techniques?) (?:do|does|did|is|are)\b|"
            # "main claim + what math it leans on?" (c571.3 gave the claim again)
            r"\bwhat (?:math|maths|mathematics|theorems?|results?) (?:it|they|the \w+) (?:leans?|rel(?:y|ies)|builds?|rests?) on\b|"
            r"\bwhat(?: is|'s|’s) the (?:proof|result|bound|theorem) based on\b"
        ),
        _p(
            r"\b(?:(?<!what )follows? from|based on|builds? on|stems? from|rel(?:y|ies) on|due to|because|owing to|thanks to|"
            r"rooted in|(?:an? )?(?:non-trivial |novel |new )?application of|ingredients?|underlying|lemmas?)\b"
        ),
        words=frozenset(
            tokenize(
                "behind based basis reason reasoning intuition tool tools ingredient technique technical math mathematical "
                "classic classical famous known well-known"
            )
        ),
    ),
    Facet(
        "derivation",
        # "how does the theory turn into the algorithm in each case?": the step from the analysis to the
        # method ("Inspired by our theoretical analysis ..., we propose CILA"; "the causal signature is
        # quantified as an information-theoretic constraint"), not the theorem again
        _p(
            r"\b(?:theory|theories|analysis|analyses|theorems?|results?|insights?) (?:turns?|leads?|translates?|becomes?|"
            r"gets? turned|is turned) into\b|\bfrom (?:the )?(?:theory|analysis) to (?:the )?(?:algorithm|method)\b|"
            # "is the contrastive paper's algorithm actually derived from its theory?" (c587.3 gave the
            # guarantees, not "Inspired by our theoretical analysis ..., we propose CILA")
            r"\b(?:derived|motivated|inspired|guided|informed|follows?) (?:from|by) (?:its|their|the|that|this) "
            r"(?:own )?(?:theory|theories|analysis|analyses|theorems?|bounds?|guarantees?|theoretical \w+)\b"
        ),
        _p(
            r"\b(?:(?:inspired|motivated|guided|informed) by (?:our|the|this|these)|derived from|(?:is|are) quantified as|"
            r"translat\w+ into|based on (?:our|this|these) (?:theor\w+|analys\w+))\b"
        ),
        words=frozenset(
            tokenize(
                "theory theories analysis turn turns lead leads translate translates into become derived derive "
                "motivated inspired guided informed follow follows"
            )
        ),
    ),
    Facet(
        "savings",
        # "latency" and "memory" alone name a measurement ("what device did it measure latency on")
        _p(
            r"\b(?:cheap\w*|costs?|costly|savings?|saves?|fast\w*|speed\w*|efficien\w*|reduc\w+|overhead|"
            r"expensive|light(?:er|weight))\b"
        ),
        _p(
            # ("iteratively reducing a noise parameter" saves nothing: c746.4 gave it for wall-clock speedups)
            r"(?:\breduc\w*\b(?!(?: \w+)? (?:a |the )?noise\b)|\d+(?:\.\d+)?\s*(?:×|x\b|times)|\\times|\bfaster\b|\bspeed-?ups?\b|\bsav\w+|\bfewer\b|"
            r"\blinear(?:-time)? complexity\b|\blower (?:\w+ )?(?:cost|latency|memory|complexity)|\bmemory\b|\befficien\w*|"
            r"\bcheap\w*|\baccelerat\w*|\blatency\b|\bsmall\w* per-head\b|\bdoes not rely\b)"
        ),
        words=frozenset(
            tokenize(
                "cheap cheaper cost costs costly saving savings save saves fast faster speed "
                "efficient efficiency reduce reduces reduction memory latency overhead expensive lighter lightweight"
            )
        ),
    ),
    Facet(
        "mechanism",
        # "how do the two differ" asks for a comparison, not a mechanism
        _p(
            r"^(?:(?!.*\b(?:compar|differ|relat|contrast)\w*)(?:\W*how (?:does|do|did|is|are)\b|.*\bhow (?:does|do) "
            r"(?:each|it|they|that|this|the \w+) (?:one )?\w+|.*\bmechanism|.*\bwhat makes\b|.*\bhow (?:it|they) works?\b|"
            # "how do they differ in what the attention depends on": a comparison of mechanisms
            r".*\btell me more about how\b)|.*\bwhat (?:[\w-]+ ){0,4}depends? on\b|"
            # "what's the core trick there?", "the key idea?"
            r".*\b(?:core|key|main|central|big|basic) (?:trick|idea|insight)s?\b|.*\bthe trick\b)"
        ),
        _p(
            r"\b(?:we (?:\w+ )?(?:propose|introduce|present|design|reformulate|use|replace|couple|extend|leverag|"
            r"employ|adopt|utili[sz])\w*|to represent|"
            r"by (?:\w+ly )?\w+ing|through|via|based on|mechanism|induced by|depends? (?:only )?on|"
            r"(?:is|are) (?:trained|learned|produced|built|induced)|consists? of|does not rely)\b"
        ),
        words=frozenset(tokenize("how mechanism makes make work works core key main central trick idea insight")),
    ),
    Facet(
        "computation",
        # "how does CILA pick its distillation weights?": the sentence saying how the value is computed
        # ("These distillation coefficients are easily computed by the ratio between ..."), not the
        # one saying that the method uses them (c418.3)
        _p(
            r"\bhow (?:do|does|did|is|are|do they|does it)\s+(?:[\w-]+\s+){0,3}?(?:pick|picks|picked|choose|chooses|chosen|"
            r"set|sets|compute|computes|computed|calculate|calculates|calculated|determine|determines|determined|"
            r"select|selects|selected|tune|tunes|tuned)\b"
            # "how does it pick which tools to use" is a choice among options, which the mechanism
            # sentence answers (c236.2 and c298.2 lost their planner sentence to this facet)
            r"(?!\s+(?:which|what|between|among|from)\b)"
        ),
        _p(
            r"\b(?:(?:computed|calculated|determined|given|set|chosen|obtained|estimated|defined) (?:by|as|from|via|using)|"
            r"ratio (?:between|of)|proportional to)\b"
        ),
        words=frozenset(
            tokenize("pick picks choose chooses set sets compute computes calculate determine select tune")
        ),
    ),
    Facet(
        "contrast",
        # "how's its attention different from normal self-attention?": the sentence that sets the
        # paper's own thing apart from the usual one ("Different from self-attention, position-attention
        # is induced by only ..."), not the one saying it does better (c296.2, c333.2)
        _p(FROM_THE_USUAL),
        _p(
            r"\b(?:different from|differs? from|unlike|in contrast to|contrary to|whereas|rather than|instead of|"
            r"as opposed to)\b"
        ),
        words=frozenset(tokenize("different differ differs distinct normal standard regular vanilla classical usual")),
    ),
    Facet(
        "requirement",
        # "Does either of them need paired training data?": the sentence saying what the paper's method
        # needs or does without ("only linear mapping necessitates paired data"), not the one saying
        # what the usual approach trains on.
        # Not "which of them needs training?": a selection keeps the papers that need it, and the cues
        # below ("training-free", "without") say that one does not.
        _p(r"^(?!.*\bwhich\b).*\b(?:need|needs|needed|require|requires|required|rel(?:y|ies) on)\b"),
        _p(
            # "only" of what it needs ("requires only black-box access"), not of a count ("in only 7 steps")
            # "the inference steps required by common sequential sampling algorithms": what others need
            r"\b(?:need\w*|requir\w+(?! by)|necessitat\w+|rel(?:y|ies|ying) on|without|(?:\w+-)?free|"
            r"only (?:needs?|requires?|uses?|relies|depends)|(?:needs?|requires?|uses?) only|"
            r"no (?:longer|need)|dispens\w+|eliminat\w+|(?:does|do) not (?:rely|need|require)|"
            # "does it need the model's internals?": a model-agnostic method for black-box models needs none
            r"(?:\w+-)?agnostic|black-box|"
            # "EWoK can be applied on top of any off-the-shelf non-robust RL algorithm": it needs no special one
            r"on top of any|any off-the-shelf)\b"
        ),
        words=frozenset(tokenize("need needs needed require requires required rely relies")),
    ),
    Facet(
        "mapping",
        # "What does the model map from and to?": the sentence saying what goes in and what comes out
        # ("translate molecular graphs into postfix notations of synthesis").
        _p(
            r"\bmaps? (?:\w+ )?from\b|\bmap(?:s|ping)? (?:from )?what\b|\bfrom what to what\b|"
            r"\binputs? and outputs?\b|\bwhat (?:goes in|comes out)\b|\btakes? (?:in|as input)\b"
        ),
        _p(r"\b(?:translat\w+|maps?|mapping|convert\w*|\w+ into|inputs?|outputs?|predict\w* \w+ (?:\w+ )?from)\b"),
        words=frozenset(tokenize("map maps mapping from input inputs output outputs translate convert")),
    ),
    Facet(
        "definition",
        # "What does diversity mean in each?": the sentence saying what the word stands for
        # ("Diversity captures the degree of disagreement in model rankings across tasks").
        # "what does each expert stand for?": what each stands for in the method ("each expert
        # formalizes a skill as a contextual motion primitive")
        _p(
            r"\bwhat (?:does|do|is) (?:[\w'-]+ ){1,4}(?:mean|stand for|represent)\b|\bdefin\w+|\bwhat is meant by\b|"
            r"\bmeaning of\b|"
            # "whats their key quantity": the quantity the paper defines ("the effective parameter count,
            # p_eff, given by ..."; c469.3 said the abstract does not mention "quantity")
            r"\b(?:key|main|central|core) (?:quantit(?:y|ies)|measures?|metrics?)\b"
        ),
        _p(
            r"\b(?:captures?|(?:is|are) defined|defines?|refers? to|measures?|quantif\w+|we call|stands? for|"
            # "the effective parameter count, p_eff, given by the sum of ...": a quantity defined
            r"that is|i\.e\.|namely|in the sense|formali[sz]es?|represents?|given by)\b"
        ),
        words=frozenset(
            tokenize(
                "mean means meaning meant define defined definition stand represent quantity quantities measure metric"
            )
        ),
    ),
    Facet(
        "remedy",
        # "Does either of them propose a fix?": the sentence that answers the problem the abstract
        # raises ("To tackle this challenge, we propose ..."), not one that repeats the word "fix".
        _p(
            r"\b(?:fix(?:es)?|remed(?:y|ies)|cures?|workarounds?|solutions? (?:to|for)|way (?:out|around)|"
            r"(?:solve|address|tackle|overcome|mitigate)[sd]? (?:it|this|that|them|the (?:problem|issue)))\b"
        ),
        _p(
            r"\b(?:to (?:tackle|address|overcome|mitigate|remedy|resolve|fix|alleviate|solve|circumvent|remove)|"
            r"we (?:\w+ )?(?:propose|introduce|present|develop|design|suggest)\w*|tackl\w+|mitigat\w+|"
            r"alleviat\w+|overcom\w+|remed\w+|circumvent\w*|"
            # "We not only address the overlooked issue of lattice permutation equivariance"
            r"address(?:es|ed)? the (?:[\w-]+ ){0,2}(?:issues?|problems?|challenges?|limitations?))\b"
        ),
        words=frozenset(
            tokenize(
                "fix fixes remedy remedies cure cures workaround workarounds solution solutions solve solves "
                "address addresses tackle tackles overcome overcomes mitigate mitigates propose proposes way"
            )
        ),
    ),
    Facet(
        "removal",
        # "What does each get rid of?": the restriction the paper's method drops ("eliminates the sparsity
        # constraints", "without model retraining", "with relaxed assumptions"), not "backdoor removal".
        _p(
            r"\b(?:get(?:s|ting)? rid of|(?:drop|remove|eliminate|avoid|relax|lift)(?:s|ed)? (?:the |any |a |which |what )?"
            r"(?:need|requirements?|restrictions?|assumptions?|constraints?|limitations?)|do(?:es)? away with|"
            # "what does the backdoor defense manage without?"
            r"dispens\w+ with)\b|\b(?:manage|manages|managed|do|does|work|works|get by|gets by|go|goes) without\W*$"
        ),
        _p(
            # "without severe performance degradation" keeps a quality; it drops no requirement
            r"\b(?:eliminat\w+|without(?! (?:\w+ )?(?:performance|accuracy|loss|degradation|sacrific|compromis))|"
            r"relax\w*|no longer|dispens\w+|instead of|rather than|(?:\w+-)?free|"
            r"(?:does|do) not (?:rely|need|require)|bypass\w*|lift\w*)\b"
        ),
        words=frozenset(
            tokenize(
                "get rid drop drops remove removes eliminate eliminates avoid relax lift need requirement "
                "requirements restriction restrictions assumption assumptions constraint constraints away"
            )
        ),
        own_only=True,  # "the key challenge is how to ... relax unrealistic assumptions" is the problem
    ),
    Facet(
        "threat",
        # "What threat does each protect against?": the attack or adversary the abstract names, often
        # in its opening sentence ("Backdoor defense is crucial ... when under attack").
        # Asked about the threat itself; "the EBBA backdoor defense paper" only names a paper.
        _p(
            r"\b(?:threats?|(?:what|which) (?:kinds? of |sorts? of )?(?:attacks?|attackers?|adversar\w+)|"
            r"(?:protect\w*|defen[cd]\w*|secur\w*|safe|robust) (?:\w+ )?against)\b"
        ),
        _p(
            r"\b(?:attack\w*|adversar\w+|poison\w*|backdoor\w*|secrets?|leak\w*|threats?|malicious|"
            r"tamper\w*|membership inference|jailbreak\w*)\b"
        ),
        background_ok=True,
        words=frozenset(
            tokenize(
                "threat threats attack attacks attacker attackers adversary adversaries adversarial protect "
                "protects protection defend defends defense defence security"
            )
        ),
    ),
    Facet(
        "generation",
        _p(r"\b(?:generat\w*|outputs?|produc\w+|synthesi[sz]\w*)\b"),
        _p(
            r"\b(?:generat\w+|synthes\w+|produc\w+|outputs?|predict\w*|images?|text|structures?|molecules?|"
            r"speech|video|samples?|pathways?|notations?)\b"
        ),
        words=frozenset(
            tokenize(
                "generate generates generated generation output outputs produce produces "
                "synthesize synthesizes synthesis"
            )
        ),
    ),
    Facet(
        "training",
        _p(r"\b(?:train\w*|fine-?tun\w*|retrain\w*|learns?\b)"),
        _p(r"\b(?:train\w*|fine-?tun\w*|retrain\w*|training-free|self-supervised|pre-?train\w*|learned)\b"),
        words=frozenset(
            tokenize("train trains trained training finetune finetuning fine tuning retrain retraining learn learns")
        ),
    ),
    Facet(
        "models",
        # "which LLM does the reading agent run on?": the model underneath, asked by its kind
        _p(
            rf"\b(?:model class\w*|what (?:kind of )?models?|which models?|architectures?|networks?|nets|{ASKS_MODEL_KIND}|"
            # "what type of generative model does each one use?": the kind of model, not what it generates
            # (c575.4 gave the molecule model's abilities for its transformer)
            r"what (?:type|kind|sort|class) of (?:[\w-]+ )?models?|"
            # "how do they represent molecules and what's the model" (c439.3)
            r"what(?:'s| is| are) (?:the|their|its) (?:[\w-]+ )?models?(?! (?:of|for|about)\b))\b"
        ),
        _p(
            # "Evaluated across a range of both masked and autoregressive LMs" names the models MeZO-SVRG tunes
            r"\b(?:networks?|transformers?|architectures?|L?LMs?|language models?|VAEs?|autoencoders?|"
            r"encoder|decoder|ViTs?|two-layer|(?<!generative )models with|"
            # "Then, we design a transformer-based model to translate molecular graphs ...": the model
            # the paper builds, over "... proposed by generative models with their properties" (c439.3)
            r"we (?:design|build|develop|train|propose|introduce|use) an? (?:[\w-]+ ){0,2}models?)\b"
        ),
        words=frozenset(tokenize("model models class classes architecture architectures network networks kind")),
    ),
    Facet(
        "optimizer",
        # "what optimizer does the sharpness paper analyze": the algorithm named ("label noise SGD";
        # c548.3 said the abstract does not mention "optimizer")
        _p(r"\b(?:optimi[sz]ers?|(?:which|what) (?:optimi[sz]ation |training )?(?:algorithm|solver)s?)\b"),
        _p(
            r"\b(?:SGD|Adam\w*|RMSProp|(?:stochastic |projected |natural |mirror )?gradient (?:descent|flow|ascent)|"
            r"optimi[sz]ers?|momentum|zeroth-order|first-order methods?|second-order methods?|Newton)\b"
        ),
        # "what optimizer does it *analyze*": the verb of asking is no word to find
        words=frozenset(
            tokenize("optimizer optimizers optimiser optimisers algorithm algorithms solver solvers analyze analyzes")
        ),
    ),
    Facet(
        "control",
        # "can you steer them with it?": the sentence saying how the model's behaviour is controlled ("we can
        # control a model's behavior by finding codes ... then activating those same codes"; c467.2)
        # Asked as a question of its own ("can you steer them", "how do they control what it writes"): not
        # "simulated control tasks", "a low-level controller" (c206.4, q037), nor a long question that names
        # steering among the paper's traits (q002 lost its codebook sentence to it)
        _p(
            r"(?:^|\band\b|[,;?.])\W*(?:(?:also|so|ok)\W+)?(?:(?:can|could) (?:you|i|we|one|they|it) |how (?:do|does|can|could|did) "
            r"(?:\w+\s+){1,3}?)(?:actually |also |even |really )?(?:steer|control|guide|manipulate)\b"
        ),
        _p(r"\b(?:steer\w*|controll?\w*|guid(?:e|es|ed|ing)|manipulat\w+|activat\w+|interven\w+|edit\w*)\b"),
        words=frozenset(tokenize("steer steering control controls guide guides manipulate")),
    ),
    Facet(
        "scale",
        # "how big were the models they tried?": the size the abstract states ("Transformer language models
        # with up to 410M parameters"; c313.2 said the abstract does not mention "big")
        _p(
            r"\b(?:how (?:big|large)|what sizes?|(?:model|network) sizes?|sizes? of (?:the|their) (?:models?|networks?)|"
            r"how many (?:parameters|params|layers)|parameter counts?|params|"
            # "biggest model the codebook paper trained?" (c770.3 gave its opening sentence)
            r"(?:biggest|largest) (?:models?|networks?|lms?|transformers?))\b"
        ),
        _p(
            r"(?:\b\d+(?:\.\d+)?\s*[MBK]\b|\b(?:millions?|billions?|parameters|params|large-scale|scal(?:e|es|ing) (?:up|to)))"
        ),
        words=frozenset(tokenize("big large biggest largest size sizes parameters params layers count")),
    ),
    Facet(
        "conditions",
        # "what conditions does that need?", "under what assumptions?": the setting a result is proved in
        # ("for any high dimensional training data and certain activations, with small enough step size";
        # c319.2 said the abstract does not mention "conditions")
        # "does min degree always hold": when it does and when not (c488.3 said only where it does)
        _p(
            r"\b(?:conditions?|assumptions?|assume|assumes|when does (?:it|that|this) hold|always (?:holds?|true|the case))\b"
        ),
        _p(
            r"\b(?:for any|for all|certain|small enough|large enough|sufficiently|under (?:\w+ ){0,2}"
            r"(?:conditions?|assumptions?|settings?)|assum\w+|provided that|as long as|whenever|mild|"
            # "(1) if the data is embedded with roots of unities, ... (2) if the data is not embedded as such"
            r"if the \w+ (?:is|are) not|may not|only (?:if|when))\b"
        ),
        own_only=True,
        words=frozenset(tokenize("condition conditions assumption assumptions assume assumes hold holds")),
    ),
    Facet(
        "hardware",
        # "Which hardware do they run on?": "the iPhone 12", "multiple GPUs", "mobile devices".
        _p(r"\b(?:hardware|devices?|gpus?|cpus?|tpus?|chips?|accelerators?|(?:smart)?phones?)\b"),
        _p(
            r"\b(?:GPUs?|CPUs?|TPUs?|iPhone(?:\s*\d+)?|(?:mobile|edge) devices?|smartphones?|accelerators?|"
            r"hardware|FPGAs?|A100|H100|V100|laptops?)\b"
        ),
        words=frozenset(
            tokenize("hardware device devices gpu gpus cpu cpus tpu chip chips accelerator phone run runs")
        ),
    ),
    Facet(
        "novelty",
        # "whats new in the crystal one compared to earlier diffusion models?": what the paper adds to the
        # work before it, said after its contribution (c479.2 was given the proposal and the results)
        # (not "what's its main trick compared to earlier neural granger methods?": the trick, c167.2)
        # "what does the crystal one fix compared to earlier diffusion models" asks the same (c509.3 got
        # the proposal and the results)
        _p(
            r"\bwhat(?:'s|’s| is)? (?:actually |really )?new\b|\bnovelty\b|"
            r"\bwhat (?:does|do|did)\s+(?:[\w-]+\s+){0,3}(?:fix|address|solve|improve|change)\b[^?.;]{0,40}?"
            r"\b(?:compared (?:to|with)|over|vs\.?|versus|relative to|than) (?:the )?(?:earlier|prior|previous|existing|older)\b"
        ),
        _p(
            r"\b(?:(?:existing|prior|previous|earlier) (?:[\w-]+ ){0,2}(?:models?|methods?|works?|approaches|"
            r"algorithms?)|overlooked|unlike|not only)\b"
        ),
        own_only=True,
        words=frozenset(tokenize("new novel novelty earlier prior previous existing older compared")),
    ),
    Facet(
        "inspiration",
        _p(r"\b(?:inspir\w+|biolog\w+|brain|neuroscien\w+|cognitive|human memory)\b"),
        _p(r"\b(?:inspir\w+|brain|biolog\w+|neuro\w+|hippocamp\w+|neocortex|cognitive|human|humans)\b"),
        background_ok=True,
        words=frozenset(tokenize("inspire inspired inspiration biology biological brain neuroscience cognitive")),
    ),
    Facet(
        "objective",
        _p(r"\b(?:objectives?|loss(?:es)?|pre-?training (?:objective|task)|train(?:ed|ing)? (?:with|on|by))\b"),
        _p(
            r"\b(?:objectives?|loss(?:es)?|mean squared error|MSE|contrastive|masked|autoencod\w+|"
            r"self-supervised|denois\w+|predict\w*|regulari[sz]\w*)\b"
        ),
        words=frozenset(tokenize("objective objectives loss losses pretraining pretrain")),
    ),
    Facet(
        "agnostic",
        # "which of the three would work on any model i already trained, no matter the architecture?":
        # FDTempExplainer is "model-agnostic" for "black-box" models (c491.4 said no abstract mentions it)
        _p(
            r"\bany (?:\w+ )?(?:model|architecture|network|classifier)s?\b|\bno matter (?:the|what|which) "
            r"(?:architecture|model|network)\b|\b(?:model|architecture)[- ]agnostic\b|\bblack[- ]box\b|"
            r"\bany (?:kind|type) of (?:model|architecture|network)\b|"
            # "which of them works on a model that's already trained without changing it?" (c280.2)
            r"\b(?:model|network|net|classifier)s? (?:that'?s |that is |i'?ve |i have |i |you |we )?already (?:been )?"
            r"trained\b|\balready[- ]trained (?:model|network|classifier)s?\b|"
            # "is it tied to a specific model?": asked the other way round (c527.3)
            r"\b(?:tied|specific|restricted|limited|locked)\s+to\s+(?:a|one)\s+(?:specific\s+|particular\s+|single\s+|certain\s+)?"
            r"(?:model|architecture|network|classifier)\b|\b(?:model|architecture)[- ]specific\b"
        ),
        _p(
            r"\b(?:model|architecture)[- ](?:agnostic|independent)\b|\bblack[- ]box\b|\bany (?:pre-?trained )?(?:model|architecture)s?\b"
        ),
        words=frozenset(
            tokenize(
                "any model models architecture architectures network networks matter agnostic black box already trained "
                "without change changing modify modifying tied specific particular restricted locked "
                # "can be applied to an already-trained model": what it is applied to is the model asked of
                "apply applied applies"
            )
        ),
    ),
    Facet(
        "degradation",
        # "does squeezing everything into codes wreck performance?": what the method costs in quality
        # ("networks can operate under this extreme bottleneck with only modest degradation in
        # performance"); c583.4 gave the paper's opening sentences
        _p(
            r"\b(?:hurts?|hurting|wrecks?|wrecking|harms?|harming|degrades?|degrading|damages?|tanks?|kills?|"
            r"sacrific\w+|los(?:e|es|ing)|costs?|drops?)\s+(?:the\s+|its\s+|their\s+|much\s+|any\s+)?"
            r"(?:performance|accuracy|quality|utility)\b|"
            r"\b(?:performance|accuracy|quality|utility)\s+(?:hit|cost|drop|loss|penalty|degradation)\b"
        ),
        _p(
            r"\b(?:degradation|degrad\w+|drops?|sacrific\w+|compromis\w+|comparable|on par|matches|"
            r"modest|minimal|negligible|little|without (?:\w+ )?(?:loss|hurting|sacrificing|compromising)|"
            r"maintain\w*|retain\w*|preserv\w*|close to)\b"
        ),
        words=frozenset(
            tokenize(
                "hurt hurts wreck wrecks harm harms degrade degrades damage tank kill sacrifice lose loses cost "
                "costs drop performance accuracy quality utility hit penalty degradation"
            )
        ),
    ),
    Facet(
        "domain",
        # "what domain is each aimed at?" of PiT and Mobile Attention: PDE operator learning and computer
        # vision on mobile devices; "domain" looked up literally was in neither abstract (c577.2)
        _p(
            r"\b(?:what|which) (?:application )?(?:domains?|fields?|areas? of application)\b|"
            r"\b(?:domains?|fields?) (?:is|are|does|do) (?:it|they|each|each one|the \w+)(?: \w+)? (?:aimed|aim|targets?|"
            r"targeted|meant|for)\b"
        ),
        _p(
            r"\b(?:computer vision|vision|visual|images?|natural language|language|text|speech|audio|videos?|mobile|"
            r"devices?|robot\w*|PDEs?|operator learning|molecul\w+|chemi\w+|crystal\w*|materials?|graphs?|"
            r"time series|medical|biolog\w+|physics|scientific|recommend\w+|games?|Atari|control|privacy|"
            r"federated|astronom\w+|healthcare)\b"
        ),
        background_ok=True,
        words=frozenset(
            tokenize("domain domains field fields area areas aimed aim aims target targets targeted meant")
        ),
    ),
    Facet(
        "data_kind",
        # "what kind of data is it meant for?" of the change point paper: "manifold-valued data streams"
        # answers; "data" alone found the Euclidean scene-setting, and "meant" no sentence (c491.3)
        _p(
            r"\b(?:what|which) (?:kinds?|sorts?|types?) of (?:data|inputs?|signals?)\b|"
            r"\b(?:meant|designed|intended|made) for\b|\bwhat (?:data|inputs?) (?:is|was) it (?:for|built for)\b"
        ),
        _p(
            r"\b(?:[\w-]+-valued|data streams?|streaming|time series|tabular|images?|graphs?|point clouds?|"
            r"molecul\w+|crystals?|videos?|audio|speech|manifolds?|(?:data|inputs?) (?:that|which) (?:belong|lie|live))\b"
        ),
        words=frozenset(tokenize("kind kinds sort type types data input inputs meant designed intended made")),
    ),
)


_FIELD = re.compile(
    r"\b(?!(?:the|a|an|any|some|no|of|is|purely|its|their|this|that|what|which|and|or|with|without|behind|"
    r"for|in|on|strong|formal|much|more|new|underlying|supporting|pure|just|only|mostly|mainly|solid|rigorous|"
    # "is it all theory?": how much of it is theory, not a field named "all theory"
    r"general|existing|prior|our|your|rich|basic|deep|sound|mathematical|enough|less|all|entirely|completely|"
    r"totally|merely|exclusively|largely|mostly|solely|simply|"
    # "backed by theory", "come with actual theory": how it is asked, not a field
    r"by|actual|actually|real|proper|serious|heavy|hard|much|some|any|"
    # "which of them has theory and which is empirical?" (c438.2 looked up "has theory")
    r"has|have|had|got|gets|do|does|did|are|was|were|lacks?|needs?|"
    # "are any of them theory rather than systems papers?": the papers pointed at are theory (c718.4
    # looked up the field "them theory")
    r"them|they|those|these|both|either|one|ones|it)\b)[a-z]+ theor(?:y|ies)\b",
    re.IGNORECASE,
)


def named_fields(question: str) -> list[str]:
    """Fields the question names ("game theory", "information theory"): names, held word for word."""
    return [m.group(0) for m in _FIELD.finditer(question)]


# "what is it trying to fix", "what does it fix?": the problem a paper takes on
FIXES_WHAT = _p(
    r"\bwhat\b[^?]{0,40}\b(?:trying|meant|supposed|designed|aim(?:ing|s)?|set(?:ting)? out|wants?|wanting) to "
    r"(?:fix|solve|address|tackle|overcome)\b|\bwhat (?:does|do|did) (?:it|they|this|that|each)(?: \w+)? (?:fix|solve)\b"
)


def asked(question: str) -> list[Facet]:
    """The facets ``question`` asks about, in the order of ``FACETS``. "How does each ..." asks for a
    mechanism only when nothing more specific is asked ("how does each report results": findings)."""
    # "which of the two involves game theory": a field's name, not a question about proofs.
    unnamed = _FIELD.sub(" ", NAMING_ONE.sub(" ", question))
    found = [f for f in FACETS if f.asks.search(unnamed)]
    if any(f.name not in ("mechanism", "savings", "training") for f in found):
        found = [f for f in found if f.name != "mechanism"]
    if any(f.name == "prior_limitations" for f in found):
        # earlier work's, not the paper's own; "what shortcomings of earlier methods does it aim to fix /
        # claim to fix?" asks for the shortcomings, not for the fix or a finding (c553.3 and c563.2 got
        # the "To address these drawbacks, we propose JRNGC" sentence)
        found = [f for f in found if f.name not in ("limitations", "remedy", "findings", "problem")]
    if any(f.name == "basis" for f in found):
        # "what result is it built on?": what the result follows from, not the result again
        found = [f for f in found if f.name != "findings"]
    if any(f.name == "novelty" for f in found) or FIXES_WHAT.search(question):
        # what it fixes over earlier work is what it adds; "what is the atari one actually trying to fix"
        # asks the problem, not the fix (c598.2 got "we introduce the Hare & Tortoise")
        found = [f for f in found if f.name != "remedy"]
    if any(f.name == "agnostic" for f in found):
        # "work on any model i already trained, no matter the architecture": the model is the user's,
        # neither a model the paper trains nor the one it builds; "can be applied to an already-trained
        # model" asks what it works on, not what it is used for (c599.2 picked Codebook Features for its datasets)
        found = [f for f in found if f.name not in ("training", "models", "applications")]
    if any(f.name == "derivation" for f in found):
        found = [f for f in found if f.name not in ("theory", "mechanism")]  # the step from it, not the theory
    if _RESULT_IS_SUBJECT.search(question) and len(found) > 1:
        # "what architecture/setting is the result for": the result is what is asked about, its setting what
        # is asked (c607.3 gave the result sentence, without the two-layer networks it is for)
        found = [f for f in found if f.name != "findings"]
    if _MODEL_KIND.search(question):
        # "what type of generative model": "generative" names the kind of model, not what it generates
        found = [f for f in found if f.name != "generation"]
    if _USED_IN_TRAINING.search(question):
        # "something practical i can use in training": where the user would use it, not how the paper
        # trains (c616.2 found no training sentence in the warm-up method's line and said "does not say")
        found = [f for f in found if f.name != "training"]
    return found


_RESULT_IS_SUBJECT = re.compile(
    r"\b(?:is|are|does|do) (?:the|its|their|this|that) (?:main )?(?:results?|theorems?|findings?|bounds?|guarantees?) "
    r"(?:for|hold (?:for|in|on)|apply to|about)\b",
    re.IGNORECASE,
)
_MODEL_KIND = re.compile(r"\bwhat (?:type|kind|sort|class) of generative models?\b", re.IGNORECASE)
_USED_IN_TRAINING = re.compile(
    r"\b(?:use|apply|plug in|add)\b[^?.]{0,20}?\b(?:in|during|for|while|when)\s+(?:my |our |your )?training\b",
    re.IGNORECASE,
)


def facet_words(facets: list[Facet]) -> set[str]:
    """Question words the facets stand for: they are answered by a cue, not looked up literally."""
    return set().union(*(f.words for f in facets)) if facets else set()


def cue_score(text: str, facets: list[Facet], echoed: set[str] | frozenset[str] = frozenset()) -> float:
    """How plainly ``text`` states the asked facets: 2 per facet it has a cue of, a little per
    further cue, and half a point per word of the question's own it repeats (``echoed``: asked
    "benchmark results", a sentence on "three benchmarks" beats one on "experiments")."""
    score = 0.0
    for facet in facets:
        found = facet.states.findall(text)
        if found:
            score += 2.0 + 0.25 * min(3, len(found) - 1)
    if score and echoed:
        score += 0.5 * len(echoed & set(tokenize(text)))
    return score


def states_first(text: str, facets: list[Facet]) -> bool:
    """Does ``text`` state the first asked facet (what a "which of them ..." question selects on)?"""
    return bool(facets) and facets[0].states.search(text) is not None


def background_ok(facets: list[Facet]) -> bool:
    """May a scene-setting sentence answer these facets? Only when every asked facet allows it."""
    return bool(facets) and all(f.background_ok for f in facets)
