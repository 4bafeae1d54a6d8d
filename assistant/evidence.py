"""Which abstract sentences answer what was asked, and whether a paper is about a topic.

Evidence is picked by what the question asks (a dataset, a requirement, what a method
generates, what a paper does), never by overall similarity alone: the sentence closest to a
question is often the background sentence ("X is rapidly emerging ..."), which answers
nothing. The rules are word-level and deterministic, so a reader can see why a sentence was
chosen; closeness in meaning, when an answer supplies it, only decides between sentences the
rules already accept.
"""

from __future__ import annotations

import contextvars
import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from assistant.facets import APPLIED_CUES, Facet, background_ok, cue_score
from assistant.text import Sentence, split_sentences, tokenize

# How close in meaning a sentence is to the question (``closeness.SentenceCloseness``), while an
# answer about each paper in focus is being built; None otherwise (every other answer shape, and
# unit tests of the rules, which call the shapes without it). Weighed at CLOSENESS_WEIGHT per unit
# of cosine: a difference of 0.25 (0.50 against 0.25) is worth half a point, less than one asked
# word (2) or one facet cue (2), so it decides between sentences the rules score alike. At 4 it
# outweighed cues and moved four answers off the sentence a reader wanted (c015.2, c023.3, c025.3,
# c008.2).
CLOSENESS_WEIGHT = 2.0
_CLOSENESS: contextvars.ContextVar[Callable[[str], float] | None] = contextvars.ContextVar("closeness", default=None)


@contextmanager
def weighing_closeness(closeness: Callable[[str], float] | None) -> Iterator[None]:
    """Within the block, ``answering`` and ``stating`` add ``closeness`` of each sentence to its score."""
    token = _CLOSENESS.set(closeness)
    try:
        yield
    finally:
        _CLOSENESS.reset(token)


def _closeness(text: str) -> float:
    closeness = _CLOSENESS.get()
    return CLOSENESS_WEIGHT * closeness(text) if closeness is not None else 0.0


def closeness_to_question(text: str) -> float:
    """The cosine of ``text`` to the question being answered; 0.0 outside an answer that weighs it."""
    closeness = _CLOSENESS.get()
    return closeness(text) if closeness is not None else 0.0


# "interpretability / explanation papers": explanations beside interpretability are of models, not the
# "theoretical explanation" of No Free Prune or of continual learning (c706.3 listed both). Also read
# before a topic is split into its alternatives, where the two words stand apart.
_EXPLANATION_BESIDE = (
    (re.compile(r"\b(interpretab(?:le|ility)\s*(?:/|,|\bor\b|\band\b)\s*)explanations?\b", re.IGNORECASE), r"\1 XAI "),
    (re.compile(r"\bexplanations?(?=\s*(?:/|,|\bor\b|\band\b)\s*interpretab)", re.IGNORECASE), " XAI "),
)
# Spelled-out names and their acronyms count as one word, in questions and abstracts alike. Each
# alias runs only where its lower-case trigger occurs: ``words`` reads every sentence of every
# abstract an answer looks at, and twelve regex passes took 1.2 ms of its 1.7 ms on five abstracts.
_ALIASES: list[tuple[tuple[str, ...], re.Pattern[str], str]] = [
    # "LM fine-tuning tasks" (MeZO-SVRG) says "language model" as often as "LLM" does
    # "chatbots" are LLMs to the people who use them ("making chatbots answer faster": Lookahead decoding)
    (
        ("language", "lm", "chatbot"),
        re.compile(r"\b(?:large\s+)?language\s+models?\b|\bL?LMs?\b|\bchat\s?bots?\b", re.IGNORECASE),
        " LLM ",
    ),
    (("reinforcement",), re.compile(r"\breinforcement[\s-]+learning\b", re.IGNORECASE), " RL "),
    (("graph",), re.compile(r"\bgraph\s+neural\s+networks?\b", re.IGNORECASE), " GNN "),
    (("vision", "vit"), re.compile(r"\bvision\s+transformers?\b|\bViTs?\b", re.IGNORECASE), " ViT "),
    (("differential",), re.compile(r"\bdifferential(?:ly)?\s+priva(?:cy|te)\b", re.IGNORECASE), " DP privacy "),
    (("partial", "pde"), re.compile(r"\bpartial\s+differential\s+equations?\b|\bPDEs?\b", re.IGNORECASE), " PDE "),
    (("ordinary", "ode"), re.compile(r"\bordinary\s+differential\s+equations?\b|\bODEs?\b", re.IGNORECASE), " ODE "),
    (
        ("distribution", "domain", "ood"),
        re.compile(r"\bout[\s-]+of[\s-]+(?:distribution|domain)\b|\bOOD\b", re.IGNORECASE),
        " OOD ",
    ),
    # "pre-training" and "pretraining": one word however it is written ("pre-trained" -> "pretrained").
    (("pre-train", "pre train"), re.compile(r"\bpre[\s-]train", re.IGNORECASE), " pretrain"),
    # "do they propose a warmup?" of "a hyper-parameter-free warm-up method" (c400.4 said it was not
    # mentioned): one word however it is written. ("fine-tuning" stays two words: folded into one, it
    # weighed less in a topic's share, and "fine-tuning language models without backprop" was refused.)
    (("warm-up", "warm up"), re.compile(r"\bwarm[\s-]up", re.IGNORECASE), " warmup"),
    # "anything on lr warmup in here?": "lr" is how people write "learning rate" (c419.3 was refused)
    (("learning rate", "learning-rate", "lr"), re.compile(r"\blearning[\s-]+rates?\b|\bLRs?\b", re.IGNORECASE), " LR "),
    (("hyper-param",), re.compile(r"\bhyper-param", re.IGNORECASE), " hyperparam"),
    # "whether flat minima correspond to simple solutions": "minimizers of the sharpness" (c656.1 left the
    # sharpness paper out; "minima" said of any kind, "local minima" of neuron models made it an ODE paper)
    (("flat minim",), re.compile(r"\bflat(?:ter)? minim(?:a|um)\b", re.IGNORECASE), "flat minimizers"),
    # the "pre-image measure" of a map is no image (c679.4 gave the Brenier paper's sentence on it for
    # "image generation benchmarks")
    (("pre-image", "preimage"), re.compile(r"\bpre-?images?\b", re.IGNORECASE), " preimage "),
    # "I work in computational chemistry / materials": the science named, which the abstracts on it
    # rarely call computational (c710.1 required "computational" and listed neither paper)
    (
        ("computational",),
        re.compile(
            r"\bcomputational\s+(?=(?:chemistry|biology|physics|materials?|science|neuroscience|drug)\b)",
            re.IGNORECASE,
        ),
        "",
    ),
    # "which one is about explaining models": "explaining" after "about" is what the paper does, not
    # the asker's "explain ... to me" (c700.2 looked up "models" alone and kept the Granger paper)
    (
        ("explaining",),
        re.compile(r"\b(about|on|in|for)\s+explaining\b", re.IGNORECASE),
        r"\1 explanation of",
    ),
    # The stemmer folds words that name different things into one stem; the tokens below stand for
    # them in matching only: "continual" learning is not "continuous" features, a "distributed"
    # algorithm is not a "distribution" shift.
    (("continual",), re.compile(r"\bcontinual(?:ly)?\b", re.IGNORECASE), " lifelong "),
    # "contrastive learning" is a method, not the "contrast" of "compare and contrast" (a framing word)
    (("contrastive",), re.compile(r"\bcontrastive(?:ly)?\b", re.IGNORECASE), " contrastiv "),
    (("distribution",), re.compile(r"\bdistribution(?:s|al|ally)?\b", re.IGNORECASE), " probdistribution "),
    # "out-of-distribution generalization" is not the "General Additive Noise" of a privacy paper, and
    # "neural operators" are not what "neural networks can operate under"
    (
        ("generaliz", "generalis"),
        re.compile(r"\bgenerali[sz](?:e|es|ed|ing|ations?|ability)\b", re.IGNORECASE),
        " generalizeword ",
    ),
    (("operator",), re.compile(r"\boperators?\b", re.IGNORECASE), " operatornet "),
    # Granger causality is learned from data: a kind of causal discovery ("time series: explainability or
    # causal discovery?" left out the Granger paper, c739.1); "Granger causality" keeps its words (a paper on
    # it is a time-series paper, below)
    (("granger",), re.compile(r"\bgranger\s+causalit(?:y|ies)\b", re.IGNORECASE), r" \g<0> causaldiscovery "),
    # "privacy-preserving ML" is ML about privacy: a paper on a kind of privacy is about it, though it never
    # says "preserving" (c737.1 was refused with the Pufferfish privacy paper closest)
    (("preserv",), re.compile(r"\bprivacy[\s-]+preserv(?:ing|ation)\b", re.IGNORECASE), " privacy "),
    # "recommender systems" are a field; "time-honored recommendations" in Don't Label Twice are advice
    # (c620.4: "any papers on recommender systems?" listed that paper)
    (("recommender",), re.compile(r"\brecommender(?:\s+systems?)?\b", re.IGNORECASE), " recsys "),
    # "lora or adapters" are modules added to a model, not the "adaptation" of MeZO or of a domain
    (("adapter",), re.compile(r"\badapters?\b", re.IGNORECASE), " modadapter "),
    # a Transformer is an architecture; "transforms DP problems into graphs" is no use of one
    (("transformer",), re.compile(r"\btransformers?\b", re.IGNORECASE), " transformernet "),
    # "explainability" stems to "explain", which a question uses to ask ("explain how ..."): the
    # noun names a field ("explainability or interpretability" -> the explanation-method paper), as
    # "an explanation method" does; "a theoretical explanation for this" names none.
    (
        ("explain", "explanat"),
        re.compile(
            # ("the explanation one" names the explanation-method paper, c254.3 took a theory paper's "explanation")
            r"\bexplainab(?:le|ility)\b|\bexplainers?\b|\bexplanat(?:ion|ory)\s+(?:methods?|approach(?:es)?|techniques?|tools?)\b|"
            r"(?<=\bthe )explanation(?= (?:one|paper)\b)|"
            r"\bexplanations? (?:of|for) (?:[\w-]+\s+){0,2}(?:models?|predictions?)\b",
            re.IGNORECASE,
        ),
        " XAI ",
    ),
    *((("interpretab",), pattern, replacement) for pattern, replacement in _EXPLANATION_BESIDE),
    # "explaining model predictions" is the field with nothing to narrow it ("XAI model" bound "model" to it,
    # which FDTempExplainer's "explanation method ... black-box time series models" holds too far off, c599.1)
    (
        ("explain",),
        re.compile(r"\bexplain(?:ing|s)?\s+(?:the\s+|a\s+)?models?(?:['’]s?)?\s+predictions?\b", re.IGNORECASE),
        " XAI ",
    ),
    # "anything on explaining time series models": the field, said as what it does, and the kind of model
    # explained (c467.3 listed every time-series paper, "explaining" read as a way of asking)
    (
        ("explaining",),
        # (a kind named: "explaining models", "explaining what a model does" keep their reading, in which
        # "explain how this regime relates" of a theory paper does not make it an explanation method)
        re.compile(
            r"\bexplaining((?:\s+(?!(?:what|how|why|a|an|the|this|that|their|its)\b)[\w-]+){1,3}?)\s+"
            r"(?:models?|predictions?)\b",
            re.IGNORECASE,
        ),
        r" XAI\1 ",
    ),
    # "more understandable" is more interpretable; "understanding" (of scenes, of a model) stays apart
    (("understandab",), re.compile(r"\bunderstandab(?:le|ility)\b", re.IGNORECASE), "interpretable"),
    # "non-Euclidean data" is data on a manifold, not the "Euclidean" it negates (one word, grouped below)
    (("non-euclid", "non euclid"), re.compile(r"\bnon[\s-]euclidean\b", re.IGNORECASE), " noneuclidean "),
    # "minimal degree bias", "a min-degree interpolator": one notion, one word (a kind of implicit bias, below)
    (("degree",), re.compile(r"\bmin(?:imal|imum)?[\s-]degree\b", re.IGNORECASE), " mindegree "),
    # "decision-making problems in the physical world" are the world an agent acts in, not physics
    (("physical world", "physical-world"), re.compile(r"\bphysical[\s-]world\b", re.IGNORECASE), " physicalworld "),
    # "trade-off" is one word, not a "trade" and an "off" (grouped below with the dilemma it names)
    (("trade-off", "trade off"), re.compile(r"\btrade[\s-]offs?\b", re.IGNORECASE), " tradeoff "),
    # "molecules that can actually be made in a lab" are synthesizable ones (the paper's own word)
    (
        ("be made", "be synthes", "be produced", "in a lab", "in the lab"),
        re.compile(
            r"\b(?:(?:that|which)\s+)?(?:can|could)\s+(?:(?:actual?ly|real?ly|easily)\s+)?be\s+(?:made|synthesi[sz]ed|produced)"
            r"(?:\s+in\s+(?:a|the)\s+lab(?:oratory)?)?|"
            # "molecules you can actually make in a lab"
            r"\b(?:(?:that|which|you|we|one|i)\s+)?(?:can|could)\s+(?:(?:actual?ly|real?ly|easily)\s+)?(?:make|synthesi[sz]e|produce)"
            r"\s+in\s+(?:a|the)\s+lab(?:oratory)?",
            re.IGNORECASE,
        ),
        " synthesizable ",
    ),
    # "a process that normally runs one step at a time" is a sequential one (Lookahead: "Break the
    # Sequential Dependency"); "step by step" likewise
    (
        ("at a time", "one after", "by step", "by-step", "by word", "by token"),
        re.compile(
            r"\bone (?:step|token|thing|piece|element|item|word) at a time\b|\bone after (?:another|the other)\b|"
            r"\b(?:step|word|token)[\s-]by[\s-](?:step|word|token)\b",
            re.IGNORECASE,
        ),
        " sequential ",
    ),
    # "both learn representations without labels?": self-supervised learning is learning without
    # labels (Auto-Linear: "learned ... through self-supervised learning"); one word each, grouped below
    (
        ("without", "label-free", "unlabel"),
        re.compile(
            r"\bwithout (?:any |using |needing )?(?:labels?|label(?:l)?ed data|annotations?|supervision)\b|"
            r"\blabel[\s-]free\b|\bunlabel(?:l)?ed\b",
            re.IGNORECASE,
        ),
        " labelfree ",
    ),
    (("self",), re.compile(r"\bself[\s-]supervis(?:ed|ion)\b", re.IGNORECASE), " selfsupervised "),
    # "making chatbots spit out answers faster": what comes out is generated
    (("spit",), re.compile(r"\bspit(?:s|ting)?\s+out\b", re.IGNORECASE), " generate "),
    # "deep nets" are deep networks ("net gain" stays a gain: only the plural is read so)
    (("nets",), re.compile(r"\bnets\b", re.IGNORECASE), " networks "),
    # "input convex NNs" are input convex neural networks
    (("nn",), re.compile(r"\bNNs?\b"), " neural networks "),
    # Latin plurals the stemmer leaves apart from their singulars ("automatic curricula learning" is
    # curriculum learning; "local minima" are local minimums)
    (
        ("curricul", "minima", "maxima", "optima", "spectra"),
        re.compile(r"\b(curricul|minim|maxim|optim|spectr)a\b", re.IGNORECASE),
        r"\1um",
    ),
]


# Words that say what a question asks for, mapped to the words an abstract uses for it. Each
# group is a short, explicit paraphrase list (stems); a word outside every group matches itself.
_GROUPS = [
    "noneuclidean manifold manifolds riemannian hyperbolic",
    "fast faster speed speeds speedup speedups accelerate accelerates acceleration latency quick",
    "dataset datasets benchmark benchmarks bench corpus corpora evaluate evaluation evaluated experiments tasks suite",
    "draft auxiliary",
    "extra additional auxiliary separate",
    "solve solves solving solved solver solvers",
    # "which variables cause which" is what "Granger causality" learns
    "cause causes caused causal causality causally causation",
    # "what statistic does it track?": "This algorithm monitors the generalized Karcher mean"
    "track tracks tracked tracking monitor monitors monitored monitoring",
    # learning Granger causality is discovering causal structure ("causaldiscovery" stands in the Granger
    # abstracts, above)
    "discovery causaldiscovery",
    # "what could they steer": "we can guide the model to generate different topics" (c620.2 got the vaguer
    # "control a model's behavior")
    "steer steers steered steering guide guides guided guiding",
    "statistic statistics mean means median average averages variance quantile quantiles",
    # an autoregressive model generates: "speeding up generation" is what Lookahead does to "autoregressive decoding"
    "generate generates generating produce produces output outputs synthesize synthesis sample samples autoregressive",
    "memory memories gist store stores storage cache episodes retain retains retained retaining",
    "architecture network transformernet layer layers encoder decoder backbone",
    # "which of them requires modifying the network?": "produced by finetuning neural networks with ... bottlenecks"
    "modify modifies modifying modified modification alter alters altered altering finetune finetunes finetuning finetuned",
    # "seismic or underground imaging": "Subsurface imaging involves solving full waveform inversion ... geophysical"
    "seismic underground subsurface geophysical geophysics",
    "labelfree selfsupervised unsupervised",
    # "what symmetry issue does it fix?": "the overlooked issue of lattice permutation equivariance"
    "symmetry symmetries symmetric equivariance equivariant invariance invariant",
    # "what's the math behind it?": "our theoretical analysis ... based on Cramér's theorem"
    (
        "theory theoretical theoretically proof prove proves theorem bound bounds analysis analyze guarantee "
        "guarantees math mathematical mathematics"
    ),
    "test tested evaluate evaluated experiment experiments empirical empirically validate validates validated",
    "need needs require requires requiring rely relies depend depends assume assumes assumption assumptions without",
    "improve improves better outperform outperforms boost gains superior beat beats surpass surpasses",
    "reduce reduces reduction reductions lower cut decrease save saves savings fewer",
    "application applications domain domains applied apply",
    "robot robotic robots embodied",
    "video videos",
    "privacy private secret secrets",
    "cost costs overhead expensive cheap cheaper efficient efficiency compute computation complexity linear lighter lightweight",
    "pde ode equation equations",
    "chemistry chemical molecule molecules molecular drug",
    "materials material crystal crystals",
    # "an existing algorithm" of "any off-the-shelf ... algorithm" (c514.3)
    "existing off-the-shelf",
    # "which symmetries does it handle that earlier models missed": "the overlooked issue of lattice
    # permutation equivariance in existing models" (c593.3 gave the sentence naming EquiCSP)
    "earlier prior previous",
    "miss missed misses overlook overlooks overlooked neglect neglects neglected",
    "time temporal",
    "label labels labeled labelled labeling annotation annotations annotate annotated",
    "noise noisy",
    "scale scales scaling scalable scalability",
    "agent agents",
    "long longer length context",
    "limitation limitations limit limits drawback drawbacks challenge challenges",
    "handle handles handling tackle tackles tackling address addresses",
    "defend defends defending defense defenses defence defences protect protects protecting protection",
    # (not "xai": "a theoretical explanation for this", "which explains why" explain no model; c599.1 listed No
    # Free Prune for "explaining model predictions"; "an explanation method" is rewritten to "xai" above)
    "explain explains explaining explanation explanations explainable explainability",
    # interpretability and explainability name one field ("interpretability / explaining models")
    "xai interpretable interpretability",
    "allow allows allowing enable enables enabling permit permits",
    "steer steers steering control controls controlling",
    "hidden latent unobserved",
    # "which symmetries does it enforce?" of a paper on permutation and rotation equivariance
    "symmetry symmetries equivariance equivariant invariance invariant",
    "weight weights coefficient coefficients",
    "trojan trojaned trojans backdoor backdoors backdoored",
    # "biomedical applications? medicine ...": "tumor detection", "clinical", "patients"
    (
        "biomedical medicine medical clinical health healthcare patient patients disease diseases tumor tumors "
        "tumour tumours cancer pathology"
    ),
    # "concrete hardware, e.g. phones or GPUs": "latency on the iPhone 12", "GPU-hours"
    "gpu gpus",
    # "Transformers applied to images": "Vision Transformers", "visual representations"
    "image images vision visual",
    # "neural nets for PDEs" of a "neural network"; "fitting parameters of ODE models" is estimating them
    "net nets network networks",
    "fit fitting fits estimate estimates estimating estimation",
    # "chemistry or materials discovery" of crystal structure prediction
    "material materials crystal crystals crystalline",
    "reset resets resetting reinitialize reinitializes reinitializing reinitialization reinitialized",
    "phone phones iphone iphones smartphone smartphones",
    # "data spread across clients" of "In conventional distributed bilevel methods, each worker must
    # transmit ... gradients to the server"
    "client clients worker workers",
    # "how they learn to act": "trained ... in two stages: ... vision-language-action instruction tuning"
    "act acts acting action actions",
    # "what trade-off are they fighting?": "to overcome this efficiency-capability dilemma"
    "tradeoff tradeoffs dilemma dilemmas",
]
# Words of a question that frame it rather than name what is asked.
_FRAME = set(
    tokenize(
        # "whats the key technical tool they use": "whats" is "what's" typed without its apostrophe
        "whats hows whos wheres "
        "which what who whom whose how why when where does do did is are was were can could would should "
        "it its they them their theirs these those this that each both either first second third last latter former "
        "other another one ones two three paper papers method methods approach approaches work works author authors "
        "tell me more explain describe summarize summarise give list show find say said mention mentions "
        "about regarding between compare compared comparison differ differs difference differences versus vs "
        "contrast contrasts much many most etc "
        "any some anything there here also again already please kind sort type actually really exactly mainly main "
        "thing things stuff something report reports reported have got talk talks relate relates "
        "related relationship correspond corresponds similar similarity different build builds built keep keeps help helps allow allows let lets "
        "give gives take takes ok okay wait hmm hey oh btw want wants wanted saw heard remember remembered whether right lot lots plenty tons bunch make makes making side forget sorry include includes including roughly approximately basically back backs backed backing "
        # "what do they propose instead?": what stands in for the usual thing is what they propose
        "instead "
        # "what theoretical results does each one provide?", "do both essentially trade computation for
        # steps?": how a result is handed over or hedged, not a word of it (c590.2 gave Pufferfish's "this
        # framework does not provide the composition guarantees"; c572.3 looked up "essentially")
        "provide provides provided offer offers offered essentially fundamentally "
        # "whats else of his is in here", "i vaguely remember one on ...": c443.4, c437.4 answered that the
        # abstract "does not mention “else”", "“vaguely”"
        "else vaguely "
        "propose proposes proposed introduce introduces present presents "
        # "why not just use standard pufferfish?": the baseline's framing, not the concept
        "standard plain vanilla usual conventional ordinary just simply besides abstract abstracts whatever whichever "
        # "do they name which base algorithm they use?", "what does it mean concretely?"
        "name names concretely deal deals dealing "
        # "what quantitative gains does each report?": that gains come as figures is how, not what (c709.2)
        "quantitative quantitatively "
        # "data spread across clients": where the data lies is said by the clients, not by "spread across"
        "spread across "
        # "why does that hold?": a claim holding asks why, not for the word
        "hold holds "
        # "discretizations they weren't trained on": what is left of a negated verb is no word of the topic
        "weren wasn isn aren don doesn didn won hasn haven hadn shouldn couldn wouldn t"
    )
)
# Words too broad to decide what a paper is about; they count only as part of a phrase.
GENERIC = set(
    tokenize(
        "model models method methods network networks learning learn approach approaches algorithm algorithms "
        "system systems framework frameworks technique techniques make making makes based new novel improve "
        "improving better problem problems data machine deep neural task tasks application applications "
        "research study studies work field area topic topics using use way ways toward towards "
        # "AI for chemistry", "protecting the privacy of training data": the field itself, and the
        # everyday verb of what is done to the topic, which the abstracts about it do not use
        "ai protect protecting keep keeping "
        # "how ML benchmarks should be built": "ML" is "machine learning" shortened, as broad (c373.4
        # answered "does not mention “ML”" of a paper on machine learning benchmarks)
        "ml "
        # "making neural nets easier to understand / interpret": how much easier is no concept (c583.1
        # required "easier" and found no paper on interpretability)
        "easier easy"
    )
)
METHOD_CUE = re.compile(
    r"\b(?:we (?:\w+ly |therefore |thus |also |then |further |first |here )?(?:propose|introduce|present|"
    r"develop|design|put forward|offer|build|devise|derive|implement|make an attempt|"
    r"study|analy[sz]e|investigate|show|prove|establish|provide|explore|aim|consider|leverage|"
    # "In this work, we fill this gap by establishing theoretical performance guarantees": the paper's own
    r"(?:fill|close|bridge) (?:this|the|that|these) gaps?)|"
    r"our (?:method|approach|framework|algorithm|model|work)|"
    r"this (?:paper|work|study) (?:\w+ly )?(?:proposes|introduces|presents|studies|shows|explores|"
    r"extends|develops|demonstrates|investigates|establishes|provides))\b",
    re.IGNORECASE,
)
BACKGROUND_CUE = re.compile(
    r"^(?:(?:in particular|moreover|furthermore|specifically),\s+)?(?:recent|recently|current|currently|"
    # "A recent seminal work (InvLINT) demonstrates ...": what an earlier paper showed
    r"an? (?:recent |prior |previous |earlier )?(?:seminal |pioneering |influential )?(?:work|study|paper)\b(?! we)|"
    r"existing|many|most|however|despite|while|although|so far|"
    r"nevertheless|nonetheless|unfortunately|yet|traditionally|typically|usually|"
    r"traditional|conventional|prior|previous|in recent years|it is|it['’]s common|there (?:is|are|has been))\b|"
    r"\b(?:has|have) (?:gained|attracted|received|become|emerged|shown)\b|\b(?:is|are) emerging\b|"
    # "... diffusion models, have been extensively studied": what others have done.
    r"\b(?:has|have) been (?:\w+ly )?(?:studied|used|explored|investigated|adopted|proposed|applied)\b",
    re.IGNORECASE,
)
_CONTINUES = re.compile(
    r"(?:it|they|such (?:methods|approaches|models))\b(?! is (?:shown|proved|proven))", re.IGNORECASE
)
# Asking which dataset, benchmark, device or environment: the sentence that names them (capitals,
# digits, "iPhone 12") answers better than one that only says "dataset".
_NAMING = set(
    tokenize(
        "dataset datasets benchmark benchmarks baseline baselines tasks device devices hardware "
        "environment environments phone gpu"
    )
)
_NAMES = re.compile(r"\b[A-Z][\w-]*[A-Z][\w-]*\b|\b[A-Z][a-z]+[A-Z]\w*|\b[a-z]+[A-Z]\w*(?:\s\d+)?")
_CLAUSE_BREAK = re.compile(r";\s+|,\s+(?:which|where|while|whereas|and thus|thus|so that|resulting in)\s+")


@lru_cache(maxsize=16384)
def normalise(text: str) -> str:
    """The text with spelled-out names folded into their acronyms ("large language models" -> "LLM").
    Cached: the same abstract sentences are read again for every question about their paper."""
    lowered = text.lower()
    for triggers, pattern, replacement in _ALIASES:
        if any(t in lowered for t in triggers):
            text = pattern.sub(replacement, text)
    return text


PREDICATE_WORDS = 4  # an alternative this long says a predicate of every alternative before it


def words(text: str) -> list[str]:
    """Stemmed content words of ``text`` after alias folding."""
    return tokenize(normalise(text))


@lru_cache(maxsize=1)
def _synonyms() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for group in _GROUPS:
        stems = set(tokenize(group))
        for stem in stems:
            out.setdefault(stem, set()).update(stems)
    return {k: frozenset(v) for k, v in out.items()}


# Kinds that name one thing of their group's kind, with the things of that kind: "architecture" is
# said by "transformer" and "equation" by "PDE", but "does it use a transformer?" is not answered by
# "neural networks", nor "PDEs" by an ODE paper; a Poisson equation is a PDE. A Wasserstein distance
# is an optimal-transport one, but a paper on transport maps (Brenier's polar factorization) is not
# about Wasserstein distances.
# Granger causality is defined on time series, so a paper on it is a time-series paper though its
# abstract never says "series" (JRNGC: "full-time Granger causality").
_KINDS = {
    "transformernet": "",
    "pde": "poisson navier stokes burgers darcy",
    "ode": "",
    "transport": "wasserstein",
    "series": "granger",
    # convergence "to interpolators of minimal degree" and a "simplicity bias" are implicit biases:
    # what kind of solution training ends up at
    "implicit": "simplicity mindegree",
    # "anything about privacy or security for ml models?": a backdoor defense is a security paper
    # though its abstract says "safety and robustness ... when under attack" (c496.1 missed EBBA)
    "security secure": "backdoor backdoors backdoored attack attacks adversarial poisoned poisoning",
    # "which of those are about science rather than vision or RL?": molecules, PDEs, materials are sciences
    "science scientific": "physics chemistry chemical biology molecules molecular pde materials crystal geophysical",
    # "RL that learns diverse behaviours": what an agent learns to do are its skills (c694.1 left out Di-SkilL)
    "behavior behaviors": "skill skills",
}
_SPECIFIC: dict[str, frozenset[str]] = {
    stem: frozenset(tokenize(f"{kind} {instances}")) for kind, instances in _KINDS.items() for stem in tokenize(kind)
}


def related(stem: str) -> frozenset[str]:
    """The stem and the stems of its paraphrase group (for a specific kind, itself and its instances)."""
    if stem in _SPECIFIC:
        return _SPECIFIC[stem]
    return _synonyms().get(stem, frozenset()) | {stem}


# "totally unrelated: is there a paper on learning-rate warm-up ...?", "different question - ...": a
# preface saying the subject changes asks for nothing ("total", "unrel" were looked up as asked words);
# "diff field - fitting parameters of neuron models ..., anything on that" (c509.4 stayed on EquiCSP).
TOPIC_CHANGE = re.compile(
    # "ok different thing, ...": a word that only takes a breath may come first
    r"^\W*(?:(?:ok|okay|alright|so|and|now|oh|hmm|also)\W+)?(?:(?:totally|completely|entirely|somewhat|slightly) )?"
    r"(?:unrelated|off[- ]topic|"
    r"(?:a |one )?(?:different|diff|new|another|separate|last|final|other) (?:question|q|topic|thing|angle|direction|subject|field|area|domain)|"
    # "last one - llm agents that deal w video or 3d scenes?" (c436.4 searched for "last one")
    r"(?:last|final) one|"
    r"switching (?:gears|topics?|fields?|subjects?)|chang(?:e|ing) (?:of )?(?:the )?(?:topic|subject)|"
    # "On a different subject: is there a paper on federated learning?" (c754.3 searched for "different subject")
    r"on (?:a|an) (?:different|other|unrelated|separate) (?:note|subject|topic))\b\s*"
    # "unrelated but is there a backdoor defense paper?" (c431.4 looked up "unrelated" in the paper shown)
    r"(?:(?:[:;,.!?\-–—]+\s*)+|but\s+|"
    # "also unrelated is there something on wasserstein gradient descent ...": the request straight after
    # (c506.4 read it as context of the question before)
    r"(?=(?:is|are) there\b|any(?:thing)?\b|do you have\b))",
    re.IGNORECASE,
)


# "going back to the benchmark trade-off paper, how many ...": where the conversation returns, asked of nothing
_RETURNING = re.compile(r"^\W*(?:(?:ok|okay|so|and)\W+)?(?:going|coming|getting|turning) back to\b", re.IGNORECASE)


def asked_terms(question: str) -> list[str]:
    """What the question asks about: its content words less the framing ("which of them", "tell me")."""
    text = _RETURNING.sub("", TOPIC_CHANGE.sub("", question))
    return [w for w in dict.fromkeys(words(text)) if w not in _FRAME and len(w) > 1]


@dataclass
class Topic:
    """The key concept of a topic question, as stems. ``required`` are its words; ``alternatives``
    are the ways a paper can be about it (the concept itself, or one of the examples it gives, "e.g.
    backdoor attacks"), each a list of slots; a slot is met by any of its words ("chemistry or
    materials" is one slot). Each pair in ``phrases`` must stand close together ("diffusion models"
    is not "diffusion tempering")."""

    text: str
    required: list[str] = field(default_factory=list)
    phrases: list[tuple[str, str]] = field(default_factory=list)
    led: bool = False  # the concept followed a lead ("about", "on", "for"), rather than being the whole question
    alternatives: list[list[set[str]]] = field(default_factory=list)
    # "Besides images, what generative modeling work is there, e.g. audio, molecules?": what the asker
    # sets aside (stems), and the words of the examples they give instead
    aside: frozenset[str] = frozenset()
    examples: frozenset[str] = frozenset()
    # "making generation faster at inference time? LLM decoding or diffusion sampling, either": the
    # kinds the asker narrows the topic to, each a list of slots; a paper about the topic must be
    # about one of them too
    narrowed: list[list[set[str]]] = field(default_factory=list)
    # "which rl papers run experiments on robot sim / control benchmarks?": the benchmarks are what the
    # papers are run on, not what they study
    run_on: bool = False

    def __bool__(self) -> bool:
        return bool(self.required)


# "and protein structure prediction?": a subject alone after "and" is searched for as "what about" is
# (c710.4 gave the crystal paper's "structure prediction", where "What about ...?" was refused)
AND_SUBJECT = re.compile(
    r"^\W*(?:(?:ok|okay|so|hmm)\W+)?and\s+"
    r"(?!(?:what|which|how|why|who|whose|where|when|does|do|did|is|are|was|were|can|could|would|should|will|has|"
    r"have|the|a|an|it|its|they|them|their|both|each|either|that|this|those|these|for|with|in|on|of|to|by|from|"
    r"any|anything|some|something|datasets?|baselines?|results?|authors?|code|limitations?|numbers?)\b)"
    r"(?=[a-z][\w-]*(?:\s+[\w-]+){1,5}\W*$)",
    re.IGNORECASE,
)
_TOPIC_LEAD = re.compile(
    r"^.*?\b(?:about|on|regarding|concerning|related to|dealing with|deal with|deals with|focused on|focus on|"
    r"(?<=anything )with|(?<=something )with|(?<=papers )with|"
    r"interested in|curious about|"
    r"focusing on|study|studies|studying|(?<=paper )doing|(?<=papers )doing|address|addresses|addressing|tackle|tackles|tackling|for|cover|covers|"
    r"build|builds|building|develop|develops|"
    r"covering|discuss|discusses|examine|examines|investigate|investigates|explore|explores|involve|involves|involving|"
    r"propose|proposes|proposing|introduce|introduces|present|presents|apply|applies|applying|use|uses|using|"
    # "Which papers give convergence rates for ...": what they give is the topic, not what it is for.
    # "Can you give me an overview of the papers about LLM-based agents?": giving the asker something
    # is the asking; the topic comes after (c626.1 took "me an overview of the papers" for it).
    r"(?:give|gives|giving|provide|provides|providing)(?!\s+(?:me|us)\b)|prove|proves|proving|"
    # "Which papers borrow tools from economics": what they borrow from is the topic.
    r"borrow|borrows|borrowing|draw on|draws on|"
    # "Which papers try to make networks more understandable": what they try for is the topic.
    r"(?:try|tries|trying|aim|aims|aiming|attempt|attempts|seek|seeks) to(?: make)?|"
    # "Which papers redesign the attention mechanism to make it cheaper": what they change is the topic.
    r"redesign|redesigns|rethink|rethinks|modify|modifies|replace|replaces|simplify|simplifies)\s+",
    re.IGNORECASE,
)
# "... are designed. What does the collection contain on this?", "... Are there papers on either?": a closing
# sentence that asks for papers on what was just described (c662.1 searched for "collection" and "contain").
# "Which papers address this?" is left in: cut, it let No Free Prune into c572.1's list (taken back at the
# forty-second round, and again at this one)
_CLOSING_ASK = re.compile(
    r"(?<!i\.e)(?<!e\.g)[.!?]\s+(?:so\s+)?(?:which|what|are there|is there|do you have|anything)\b[^.?!]{0,60}"
    r"\b(?:on|about|for|regarding)\s+(?:this|that|these|those|either|both|them|it)\W*$",
    re.IGNORECASE,
)
_TOPIC_TAIL = re.compile(
    r"\s*(?:\?|,\s*and\b|\band how\b|\band what\b|\band which\b|\bin the (?:index|collection)\b|"
    r"[;!]|\s[-–—]\s|,?\s*\bwhat do you\b|(?<!i\.e)(?<!e\.g)\.\s+(?=(?:anything|any|what|whats|is there|are there)\b[\w\s']{0,20}\W*$)|"
    # "continual learning, or networks losing plasticity: what's there?": the topic comes first
    r"\s*[:,]\s*(?:so\s+)?what(?:'s| is| do you have| have you got)(?: there| here)?\W*$|"
    # "transformers for learning pde solution operators, anything?": the asking comes after the topic
    r",\s*(?:anything|something|any papers?)(?: (?:here|there|else|on (?:that|this|it)))?\W*$|"
    # "ok what about time series in general?": the whole field, not a paper saying "general"
    r"\s+in general\W*$).*$",
    re.IGNORECASE,
)
# How a question frames its topic, before it: "papers whose main focus is X", "what generative
# modeling work is there" (X before "work is there").
_TOPIC_FRAME = re.compile(
    r"^\W*(?:(?:which|what|any|the)\s+)?(?:papers?|works?|studies|abstracts?)\s+(?:here\s+)?(?:whose|where|with)\s+"
    r"(?:(?:main|central|primary|core)\s+)?(?:focus|topic|subject|theme|goal)\s+is\s+(?:on\s+)?",
    re.IGNORECASE,
)
_QUESTION_WORD = re.compile(
    r"^\W*(?:which|what|who|how|why|is|are|do|does|any|anything|papers?|works?|show|find|list|give|tell|i|i'm|"
    r"looking|summari[sz]e|recommend|something)\b",
    re.IGNORECASE,
)
_ANY_KIND_OF_PAPERS = re.compile(
    r"^\W*(?:(?:so|ok|and|also)\W+)?(?:(?:are there |do you have |got )?any\s+(?:other\s+|more\s+)?|"
    # "Give me an overview of the LLM-based agent papers.": the words before "papers" are the topic too
    # (c718.1 required "overview" and gave one of the four agent papers)
    r"(?:(?:can|could) you\s+)?(?:please\s+)?(?:(?:give|write) me\s+)?(?:an?\s+)?(?:overview|summary|rundown) of\s+"
    r"(?:the\s+|all(?: the)?\s+)?|summari[sz]e\s+(?:the\s+|all(?: the)?\s+))"
    r"(?P<topic>(?:[\w-]+\s+){1,4}?)(?:papers?|works?)"
    r"(?:\s+(?:in there|in here|here|there|at all|in the (?:index|collection)))?\W*$",
    re.IGNORECASE,
)
_FIELD_BEFORE_PAPERS = re.compile(
    # ("i need rl papers about ...": c694.1 listed Codebook Features for its "diverse" concepts and "behavior")
    r"^\W*(?:(?:i\s+|i'?m\s+|i am\s+)?(?:need|want|looking for)\s+)?(?:any\s+|some\s+)?"
    r"(rl|reinforcement learning|llms?|language models?|gnns?|nlp)\s+(?:papers?|works?)\s+"
    r"(?:with|on|about|using|that)\b",
    re.IGNORECASE,
)
# "Which optimization papers address communication or memory constraints?": one word of a field before
# "papers" holds for every alternative too (c709.1 listed ReadAgent and DoraemonGPT for their "memory")
_FIELD_OF_PAPERS = re.compile(
    r"^\W*(?:which|what|any)\s+(?!(?:other|more|two|three|four|recent|new|theory|theoretical|empirical|"
    r"experimental|practical|applied|good|relevant|related|such|of)\b)([a-z][\w-]+)\s+(?:papers|works)\s+"
    r"(?:address|addresses|tackle|tackles|deal with|deals with|handle|handles|study|studies|are about|on|about|that)\b",
    re.IGNORECASE,
)
_WORK_IS_THERE = re.compile(
    r"^\W*(?:[^,?]{3,40},\s*)?what\s+(?P<topic>(?:[\w-]+\s+){1,4}?)(?:work|research|papers)\s+(?:is|are)\s+there\b",
    re.IGNORECASE,
)
# "numbers?", "any figures?" as a whole follow-up: a quantity question that any figure answers
BARE_NUMBERS = re.compile(r"^\W*(?:and |so )?(?:any |what )?(?:numbers|figures|stats)\W*$", re.IGNORECASE)
# "Besides images, what ...": a set-aside said first
_LEADING_ASIDE = re.compile(
    r"^\W*(?:besides|other than|apart from|aside from|except(?: for)?|beyond)\s+((?:[\w-]+\s*){1,3}),", re.IGNORECASE
)
SET_ASIDE = re.compile(
    # "..., as opposed to analysing them?" (c568.1 listed the theory paper on agents)
    r"[\s,]+(?:(?:for|in|on|to) )?(?:something |anything |things )?(?:other than|rather than|as opposed to|besides|"
    r"except(?: for)?|apart from|instead of|but not)\b.*$",
    re.IGNORECASE,
)
_HEDGES = re.compile(
    # "actualy", "realy", "basicaly": hedges as people type them
    r"\b(?:normally|usually|typically|generally|actual?ly|real?ly|basical?ly|commonly|currently|mainly|mostly|"
    r"essentially|inherently|traditionally|otherwise|somehow)\b",
    re.IGNORECASE,
)
# "more understandable to humans": who a property is for restates it, and no abstract says "humans" of it
_AUDIENCE = re.compile(r"\s+(?:to|for|by) (?:humans|people|users|practitioners|researchers)\b", re.IGNORECASE)
# "... w/ neural nets? surrogates, preconditioners, that kind of thing": the closing words say the list
# is of examples (they made it four words too long to be read as one; c521.1 left out PiT)
_AFTERTHOUGHT = re.compile(
    r"\?\s+((?:[\w-]+\s*){1,3}(?:,\s*(?!that kind|that sort|and so|etc)(?:[\w-]+\s*){1,3})+?)"
    r"(?:,?\s*(?:that kind of thing|that sort of thing|and so on|etc\.?|or similar|stuff like that))?\??\s*$",
    re.IGNORECASE,
)
# "Other efficiency papers? Either on the vision side or about communication cost in distributed
# training", "faster generation at inference time? LLM decoding or diffusion sampling, either": a
# sentence of two kinds joined by "or", opened or closed by "either", narrows the topic before it
# (c550.3 listed the Brenier and backdoor papers, c541.1 the Poisson solver); after a dash as well ("making
# generation faster at inference time - llms or diffusion, either works": c601.1 listed every LLM paper)
NARROWING = re.compile(
    r"(?:(?:\?|\s[-–—])\s+(?:either\s+(?P<a>[^?.;]{2,80}?\s+or\s+[^?.;]{2,80}?)|(?P<b>[^?.;]{2,80}?\s+or\s+[^?.;]{2,80}?),?\s*"
    # "llm decoding or diffusion sampling, whatever's in here" (c671.1 wrote of the diffusion paper's background)
    r"(?:either(?: one| way| is fine| works)?|whatever(?:'s| is)(?: in)?(?: here| there)?|whatever you(?:'ve)? (?:have|got)|"
    # "making inference faster - llm decoding or diffusion sampling, whichever" (c701.1 listed the
    # Bures-Wasserstein paper for its "convergence speed")
    r"whichever(?: one| works| is fine)?|any(?: of them| works| is fine)?))|"
    # "making generation faster at inference time, llms or diffusion both fine": after a comma too, before a
    # closing that says either is welcome (c731.1 listed the representation-learning paper for "diffusion");
    # not "on privacy, either DP variants or federated learning", two subjects
    r",\s+(?P<c>[^?.;]{2,80}?\s+or\s+[^?.;]{2,80}?),?\s*(?:both(?: are| r|'re)? (?:fine|ok|okay|good)|"
    r"either (?:one |way )?(?:is fine|works))|"
    # "which papers are about making generation faster at inference time? llms or diffusion models": two
    # short kinds alone after the question (c751.1 listed the Poisson solver for its "fast inference");
    # not "tldr? majority vote or not"
    r"\?\s+(?P<d>[\w-]+(?: [\w-]+)? or (?!not\b)[\w-]+(?: [\w-]+)?)|"
    # "whats out there on speeding up generation at inference time, for llms or diffusion models" (c631.1
    # listed the Poisson solver too)
    r",\s+(?:for|in|on|with)\s+(?P<e>[\w-]+(?: [\w-]+)? or (?!not\b)[\w-]+(?: [\w-]+)?))"
    r"\W*$",
    re.IGNORECASE,
)
_SIDE = re.compile(r"\b(?:on|from) the ([\w-]+) side\b", re.IGNORECASE)  # "on the vision side": vision
# "vision side: self-supervised pretraining for images, or ...": the field a request is in, said before it;
# the request names its subjects (c659.4 took "pretraining for" as what the papers do and lost it)
SIDE_PREFACE = re.compile(r"^\W*(?:on\s+)?(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+side\s*[:,–—-]\s*", re.IGNORECASE)
# "RL work on two fronts: A, and B", "Two questions of interest: (i) A, and (ii) B": each named subject is a
# topic of its own (c664.1 cut the second off at ", and"; c656.1 searched for "questions of interest")
_SUBJECTS_LISTED = re.compile(
    r"^.*?\b(?:on\s+)?(?:two|three|2|3|several|a few)\s+(?:fronts|things|topics|questions|areas|directions|subjects|"
    r"angles|problems)(?:\s+of\s+interest|"
    # "two things im reading up on: A, and B": what the asker does with them is no subject (c713.1 read one)
    r"\s+(?:i|im|i'm|i’m|i am|we|we're|we’re)\s[^:?]{0,40})?\s*:\s*",
    re.IGNORECASE,
)
_ENUMERATION = re.compile(r"\(\s*(?:i{1,3}|iv|[a-d1-4])\s*\)\s*", re.IGNORECASE)
# "differential privcy or generalizations of it": the topic, with what grows out of it (all of it was
# required, and the Pufferfish paper, "a flexible generalization of differential privacy", refused: c667.1)
_AND_ITS_KIN = re.compile(
    r",?\s*\b(?:or|and)\s+(?:its\s+)?(?:generali[sz]ations?|variants?|extensions?|relatives?|versions?|"
    r"variations?)(?:\s+(?:of|on)\s+(?:it|them|that|this))?(?=\W*$|\s*[?,.;])",
    re.IGNORECASE,
)
# "rl papers with actual experiments": the kind of paper wanted, which shapes.topic_list keeps to; the
# topic is what comes before it (c557.1 searched for "actual experiments" and refused)
PAPER_KIND_AFTER = re.compile(
    r"\b(?:papers?|works?)\s+(?:with|that have|that run|having)\s+(?:actual |real |any |some |proper )?"
    r"(experiments?|experimental results?|empirical (?:results?|evaluations?)|proofs?|theory|theoretical results?)\b",
    re.IGNORECASE,
)
# "papers about learning from changing data — continual learning, loss of plasticity, that kind of
# thing?": a list after a dash names examples of the topic (the tail cut it off, and with it the words
# the continual-learning papers hold).
_DASHED_EXAMPLES = re.compile(
    r"\s[-–—]\s((?:[\w/-]+\s*){1,4}(?:,\s*(?!that kind|and so|etc)(?:[\w/-]+\s*){1,4})+?)"
    r"(?:,?\s*(?:that kind of thing|that sort of thing|and so on|etc\.?|or similar|stuff like that))?\W*$",
    re.IGNORECASE,
)
_EXAMPLES = re.compile(r",?\s*\(?\b(?:e\.g\.?,?|such as|for example|for instance|like|including)\s+", re.IGNORECASE)
_GLOSS = re.compile(r",?\s*\(?\b(?:i\.e\.?,?|, that is,|, in other words,)\s+.*$", re.IGNORECASE)
_GLOSS_MARK = re.compile(r"^,?\s*\(?\b(?:i\.e\.?,?|, that is,|, in other words,)\s+", re.IGNORECASE)
_GLOSSED = re.compile(r"^\W*(?:why|how|what|when|where|which)\b", re.IGNORECASE)
GLOSS_WORDS = 4  # a gloss this short that asks nothing names the topic ("implicit bias")
# Where a question names alternatives: "generative models, LLMs or diffusion", "a draft model or extra training".
# "which one fits a single model and which one is model-agnostic": "and which" opens a second selection
ALTERNATIVE_BREAK = re.compile(r"\s*(?:,|/|\bor\b|\band\b(?=\s+which\b))\s*", re.IGNORECASE)
_TOPIC_BREAK = re.compile(r"\s*(?:,|/|\bor\b|\band\b)\s*", re.IGNORECASE)
# "diffusion models" must not match "diffusion tempering ... models"; "operator learning" not "operations".
_PHRASE_HEADS = set(tokenize("model models learning"))
_LEARNING = tokenize("learning")[0]


# Words that place a topic without being part of it; a question about a paper may still ask them
# ("a threshold rate beyond which they grow", "handles reordering of the cell vectors": q031, q006)
_NOT_TOPIC = set(
    tokenize(
        # "training distributed across several workers or clients": how many is no word of the topic
        # (c725.3 required "several" and missed the federated paper)
        "several various numerous "
        # "privacy guarantees that go beyond plain differential privacy": going past a thing is how the
        # asker places the topic, no word an abstract about it uses (c713.1 required "go" and "beyond")
        "go goes beyond "
        # "LLM agents that can handle really long documents or videos": what the papers can do with the
        # subject, no word of it (c728.1 required "handle" of the video agent)
        "handle handles handling"
    )
)


def _content(text: str) -> list[str]:
    return [w for w in words(text) if w not in _FRAME and w not in _NOT_TOPIC and len(w) > 1]


_GERUNDS_JOINED = re.compile(r"\b[a-z]{3,}ing\s*$", re.IGNORECASE)  # a part ending in a noun in -ing ("sampling")
# the next part opening with one, then a preposition ("decoding in generative models")
_GERUND_FIRST = re.compile(r"^\s*[a-z]{3,}ing\s+(?:in|of|for|with|from|on)\b", re.IGNORECASE)


# "memory- or communication-efficient": the word after the second hyphen is said of the first too
_SUSPENDED_HYPHEN = re.compile(
    r"\b(?P<a>[a-z]+)-\s+(?P<join>or|and|/)\s+(?P<b>[a-z]+)-(?P<tail>[a-z]+)\b", re.IGNORECASE
)
# "memory-efficient or communication-efficient training": two hyphened words of one tail joined
_SAME_HYPHEN_TAIL = re.compile(r"\b[a-z]+-(?P<tail>[a-z]+)\s+(?:or|and|/)\s+[a-z]+-(?P=tail)\b", re.IGNORECASE)
# "continual learning / loss of plasticity": a last part whose words a preposition joins is one
# phrase, not "loss" said once for "continual" too (c418.1 listed a paper for holding "loss" alone)
_JOINS_NOUNS = re.compile(r"\b(?:of|for|in|on|with|from|to|by|under|over|between|across|without)\b", re.IGNORECASE)


_POINTS_TO_FIRST = re.compile(r"\b(?:them|it|its|their|they)\b", re.IGNORECASE)


# Two-word names of fields whose first word is no modifier of a word said after them: "optimal transport /
# wasserstein" is not "optimal wasserstein", nor "drug discovery or materials" "drug materials" (c518.4 left
# out the Bures-Wasserstein paper, c517.1 the crystal paper); "kv cache compression or quantization" shares
# "kv cache", and "deepfake photos or videos" "deepfake".
_TERMS = frozenset(
    tuple(_content(term))
    for term in (
        "optimal transport",
        "drug discovery",
        "weather forecasting",
        "time series",
        "computer vision",
        "speech synthesis",
        "machine translation",
        "causal inference",
        "change point",
        "subsurface imaging",
    )
)


def _ends_in_a_term(alternative: list[set[str]]) -> bool:
    """Do the last two slots of ``alternative`` spell one of ``_TERMS``, each a single word?"""
    last = alternative[-2:]
    return len(last) == 2 and all(len(slot) == 1 for slot in last) and tuple(next(iter(s)) for s in last) in _TERMS


def _a_term(part: str, stem: str) -> bool:
    """Is ``stem`` a name of several written words ("learning rates" is "lr", "operator learning"
    "operatornet")? Such a part is a topic of its own: "sgd training dynamics / learning rates" is not
    "sgd training learning rates" (c445.1 left out the sharpness paper)."""
    written = [w for w in part.split() if _content(w)]
    return len(written) >= 2 and all(stem not in _content(w) for w in written)


def _headed(part: str) -> bool:
    """Is ``part`` a field of two words or more ending in "learning" ("federated learning")? It is a
    subject of its own, not one more word for the last slot before it: "differential privacy or
    federated learning" is not "differential (privacy or federated)" (c703.1 left out FedPIN). ("image
    models" after "for llms or" and "how we evaluate models" stay one more word: read as subjects of
    their own, c493.1 listed DoraemonGPT and c562.1 Lookahead decoding.)"""
    said = _content(part)
    return len(said) >= 2 and said[-1] == _LEARNING


# "applies social choice theory or game theory to how ML is evaluated or how experiments are run": the
# ways of asking after "to how" are said of every theory, not a third subject ("how experiments are run"
# alone listed Don't Label Twice, whose theorem "runs counter to conventional wisdom": c692.1)
_HOW_CLAUSES = re.compile(r"^(?P<head>.+?)\s+(?:to|for|in|on|of)\s+(?P<tail>how\b.+?\bor\s+how\b.+)$", re.IGNORECASE)
_OR_HOW = re.compile(r"\s*,?\s*\bor\s+(?=how\b)", re.IGNORECASE)


def _alternatives(text: str, run_on: bool = False) -> list[list[set[str]]]:
    """Ways to be about ``text``, each a list of slots. "generative models, LLMs or diffusion": a
    one-word part joins the slot before it; "training dynamics or implicit bias": a longer part is
    an alternative of its own, and so is any part naming what papers are ``run_on`` ("robot sims or
    atari": a benchmark is named whole, c733.4 looked for robot-Atari papers)."""
    clauses = _HOW_CLAUSES.match(text)
    if clauses:
        heads = _alternatives(clauses.group("head"), run_on) or [[]]
        tails = [[{w} for w in _content(c) if w not in GENERIC] for c in _OR_HOW.split(clauses.group("tail"))]
        return [h + t for h in heads for t in tails if h + t]
    # "interpretability / explanation" is one field (XAI) only said together, so read before the split
    for pattern, replacement in _EXPLANATION_BESIDE:
        text = pattern.sub(replacement, text)
    text = _SUSPENDED_HYPHEN.sub(r"\g<a>-\g<tail> \g<join> \g<b>-\g<tail>", text)
    alternatives: list[list[set[str]]] = []
    before = ""
    parts = [p for p in _TOPIC_BREAK.split(text) if p.strip()]
    if any(_POINTS_TO_FIRST.search(p) for p in parts[1:]):
        # "world models and backprop through them for policy learning": the second part says more of the
        # first, so one topic (read as either, the LLM-planner paper's "world model" listed it, c473.4)
        return [[{w} for w in _content(text) if w not in GENERIC]]
    # "continual learning and plasticity": a list of two topics, read as either one.
    for part in (p for p in _TOPIC_BREAK.split(text) if p.strip()):
        stems = [w for w in _content(part) if w not in GENERIC]
        if not stems:
            continue
        if (
            alternatives
            and len(stems) == 1
            and not run_on
            and not _ends_in_a_term(alternatives[-1])
            and not _a_term(part, stems[0])
            and not _headed(part)
        ):
            alternatives[-1][-1].add(stems[0])
        elif (
            alternatives and _GERUNDS_JOINED.search(before) and _GERUND_FIRST.match(part) and len(alternatives[-1]) >= 2
        ):
            # "speeding up sampling or decoding in generative models": two nouns in -ing joined, then
            # what both are of; one slot for the two, and the rest said of either
            alternatives[-1][-1].add(stems[0])
            alternatives[-1].extend({w} for w in stems[1:])
        else:
            alternatives.append([{w} for w in stems])
        before = part
    last = alternatives[-1] if alternatives else []
    ends = {frozenset(a[-1]) for a in alternatives[:-1]}
    shared = next((k for k, slot in enumerate(last[:-1]) if k >= 1 and frozenset(slot) in ends), None)
    if len(alternatives) >= 2 and len(ends) == 1 and shared is not None and _SAME_HYPHEN_TAIL.search(text):
        # "memory-efficient or communication-efficient training of large models": what follows the word
        # the alternatives share is said of each ("memory-efficient" alone listed ReadAgent and
        # DoraemonGPT for their "memory", c767.3)
        said = last[shared + 1 :]
        return [a + [set(slot) for slot in said] for a in alternatives[:-1]] + [last]
    if (
        len(alternatives) >= 2
        and all(len(a) == 1 for a in alternatives[:-1])
        and len(alternatives[-1]) >= PREDICATE_WORDS
        and not _JOINS_NOUNS.search(before)
    ):
        # "why sgd / training ends up at simple solutions": what follows the last alternative's first word
        # is said of each ("sgd" alone made the zeroth-order fine-tuning paper, which compares with SGD,
        # one on simple solutions: c469.1)
        said = alternatives[-1][1:]
        return [a + [set(slot) for slot in said] for a in alternatives[:-1]] + [alternatives[-1]]
    if (
        len(alternatives) >= 2
        and all(len(a) == 1 for a in alternatives[:-1])
        and len(alternatives[-1]) >= 2
        and not _JOINS_NOUNS.search(before)
        # "world models or learning diverse skills": "world models" is a whole term, no "world skills"
        # (the "diverse" left alone made Codebook Features' "diverse concepts" a skills paper, c619.1)
        and not any(len(_content(p)) >= 2 and _content(p)[-1] in _PHRASE_HEADS for p in parts[:-1])
    ):
        # "chemistry or materials discovery" is "chemistry discovery or materials discovery": the last
        # word is said once for every alternative, and the first needs no such word, nor the last
        alternatives.append([set(slot) for slot in alternatives[-1][:-1]])
    return alternatives


_PLACE = re.compile(
    r"\s*\b(?:in|from|within) (?:the|this|your) (?:collection|index|catalogue|catalog|corpus|library|batch|set|list)\b|"
    r"\b(?:here|indexed)\b|"
    # "keeping networks plastic over time": when, not what ("time" would ask for time series)
    r"\s*\b(?:over time|in practice|these days|nowadays)\b|"
    # "causality in some form", "agents built around LLMs": how loosely it is asked, or what the
    # topic's things are made with, said in words no abstract uses ("form", "around" were required)
    r"\s*\b(?:in|of) (?:some|any|one) (?:form|way|shape|kind|sort)(?: or (?:another|other))?\b|"
    # "agents powered by LLMs" are agents with LLMs ("power" was required)
    r"\s*\b(?:built|centered|centred|organi[sz]ed|designed|structured|revolving|powered|driven|backed|fu?ell?ed|"
    r"enabled|run|controlled|operated) (?:around|by|on top of|upon)\b|"
    # "learning lots of different skills", "figuring out which variables cause which": how much, or the
    # asking itself, in everyday words no abstract uses ("lot", "figur" were required)
    r"\s*\b(?:lots of|a lot of|plenty of|tons of|a bunch of|a variety of|a range of)\b|"
    r"\s*\b(?:figur(?:e|es|ing)|find(?:ing)?|work(?:ing)?) out\b|"
    # "neural nets to solve PDEs": what is solved is the topic; PiT's "operator learning for PDEs"
    # never says "solve" ("solv" was required, and PiT was left out)
    r"\s*\b(?:to|for|that|which) solv(?:e|es|ing)\b(?=\s+\w)|"
    # "papers on time-series data, even if they're not about causal discovery?": a loosening, no topic of
    # its own (c563.3 required "causal discovery" with "time series" and listed one paper)
    r",?\s*\b(?:even if|even though|whether or not|regardless of whether)\b[^?.;]*",
    re.IGNORECASE,
)


# "i work with multivariate time series, which papers would be relevant to me", "im looking into llm based
# agents, what do u have on that": the asker's work, then the ask; neither names the topic ("relevant",
# "im", "look" were required; c474.1 listed one of three time-series papers, c482.1 one of four agents)
_SELF_FRAME = re.compile(
    # "Hi! I work on privacy-preserving ML. Which papers here are relevant?" (c737.1 searched for the greeting
    # and the ask as well)
    r"^\W*(?:(?:hey|hi|hello|hiya)\b[\s,!.-]*(?:there\b[\s,!.-]*)?)?(?:i|we|im|i'm|i’m|we're)\s+(?:am\s+|are\s+)?(?:currently\s+|mostly\s+)?"
    r"(?:(?:work(?:ing)?|look(?:ing)?|do(?:ing)? research|research(?:ing)?)\s+(?:with|on|into|in)|"
    # "I'm compiling a reading list on LLM-based agents. What in this collection is relevant?"
    r"(?:compil(?:e|ing)|putting together|mak(?:e|ing)|writ(?:e|ing)|build(?:ing)?)\s+(?:a|my|our)\s+"
    r"(?:reading list|survey|lit(?:erature)? review|related[- ]work section)\s+(?:on|about|for|of))\s+",
    re.IGNORECASE,
)
_ASK_TAIL = re.compile(
    r"\s*[,.;?]\s*(?:so\s+)?(?:which|what|anything)\b[^,.;?]{0,40}?\b(?:relevant(?: to me| here)?|"
    r"(?:do|does|did) (?:u|you|ya|we) have(?: on (?:that|this|it))?|(?:'s|’s| is) (?:there|here)|"
    r"should (?:i|we) read(?: (?:from|in) (?:this|the) (?:set|collection|index))?)\W*$",
    re.IGNORECASE,
)


# "papers about how ML benchmarks are designed / evaluated?": benchmarks are the topic, how they are made
# only its side (c571.1 required "design" or "evaluate" and left out the multi-task benchmark paper)
_MADE = r"(?:designed|built|constructed|made|evaluated|run|chosen|created)"
# "how machine learning benchmarks and model comparisons are designed": what is made is the topic (c662.1
# required "design" and left out the classifier-comparison paper)
_HOW_MADE = re.compile(
    r"\bhow ((?:[\w-]+ ){0,2}(?:benchmarks?|datasets?|metrics?|leaderboards?|comparisons?|evaluations?)"
    r"(?: (?:and|or) (?:[\w-]+ ){0,2}(?:benchmarks?|datasets?|metrics?|leaderboards?|comparisons?|evaluations?))?) "
    rf"(?:are|is|get|gets|should be) {_MADE}(?:\s*(?:/|or|and)\s*{_MADE})*",
    re.IGNORECASE,
)


# "papers that build or analyze agents based on LLMs": what is done with the topic, either way, is no
# part of it (c574.1 required "analyze" and left out ReadAgent and LEO)
_VERB = r"(?:build|develop|design|propose|study|analy[sz]e|evaluate|use|understand|improve|apply)"
_TWO_VERBS = re.compile(rf"\b{_VERB}\s*(?:or|and|and/or|/)\s*{_VERB}\b", re.IGNORECASE)


def topic(question: str) -> Topic:
    """The concept a topic question is about ("Which papers are about making LLM inference faster?")."""
    framed = _SELF_FRAME.match(question)
    if framed and _ASK_TAIL.search(question):
        question = "papers on " + _ASK_TAIL.sub("", question[framed.end() :])
    text = re.sub(
        r"\bon top of\b",
        "on",
        _PLACE.sub("", SIDE_PREFACE.sub("", TOPIC_CHANGE.sub("", question.strip()), count=1)),
        flags=re.IGNORECASE,
    )
    listed = _SUBJECTS_LISTED.match(text)
    if listed:
        subjects = _ENUMERATION.sub("", _CLOSING_ASK.sub("", text[listed.end() :]))
        text = ("papers on " + re.sub(r",?\s+and\s+(?=\w)", " or ", subjects, count=1)) if " and " in subjects else text
    text = _AND_ITS_KIN.sub("", _CLOSING_ASK.sub("", text))
    text = _TWO_VERBS.sub("on", _HOW_MADE.sub(r"\1", text))
    kind_after = PAPER_KIND_AFTER.search(text)
    if kind_after:
        text = text[: kind_after.start()] + "papers" + text[kind_after.end() :]
    narrowing = NARROWING.search(text)
    narrowed = []
    if narrowing:
        kinds = _SIDE.sub(
            r"\1",
            narrowing.group("a")
            or narrowing.group("b")
            or narrowing.group("c")
            or narrowing.group("d")
            or narrowing.group("e"),
        )
        narrowed = [s for s in ([{w} for w in _content(k) if w not in GENERIC] for k in _TOPIC_BREAK.split(kinds)) if s]
        text = text[: narrowing.start() + 1] if len(narrowed) >= 2 else text
        narrowed = narrowed if len(narrowed) >= 2 else []
    leading = _LEADING_ASIDE.match(text)
    aside = frozenset(w for w in _content(leading.group(1)) if w not in GENERIC) if leading else frozenset()
    # "anything with biomedical applications? medicine, neuroscience, drug design": the list after the
    # question mark gives examples of the topic.
    text = _DASHED_EXAMPLES.sub(r", e.g. \1", _AFTERTHOUGHT.sub(r", e.g. \1", text))
    there = _WORK_IS_THERE.match(text)
    if there:  # "Besides images, what generative modeling work is there, e.g. audio, molecules?"
        text = f"papers on {there.group('topic').strip()}{text[there.end() :]}"
    text = AND_SUBJECT.sub("papers on ", _TOPIC_FRAME.sub("papers on ", text, count=1), count=1)
    kind_first = _ANY_KIND_OF_PAPERS.match(text)
    if kind_first:  # "any recommender systems papers in there?": the words before "papers" are the topic
        text = f"papers on {kind_first.group('topic')}"
    lead = _TOPIC_LEAD.match(text)
    if lead and not _QUESTION_WORD.match(text):
        # "transformer world models for RL, what's there?": keywords before a "for" are the topic, and
        # the one word after it only narrows them
        before, after = (
            _content(text[: lead.start(0) + len(lead.group(0))]),
            _content(_TOPIC_TAIL.sub("", text[lead.end() :])),
        )
        if (
            (
                # "speeding up inference for generative models - ...": two telling words before the "for" are
                # the topic too (c671.1 searched for "generative models" alone and listed the crystal paper)
                (len([w for w in after if w not in GENERIC]) <= 1 and len(before) >= 2)
                # "self-supervised pretraining for images, or making ViTs fast on phones": the "for" is inside the
                # first of two subjects, not what the papers are for (c659.4 lost the pretraining)
                or (
                    lead.group(0).rstrip().lower().endswith("for")
                    and len(before) >= 2
                    and re.search(r",\s*or\b|\s/\s", _TOPIC_TAIL.sub("", text[lead.end() :]))
                )
            )
            or (
                # "interpretability methods for neural nets": what it is for names nothing telling
                all(w in GENERIC for w in after) and any(w not in GENERIC for w in before)
            )
        ):
            lead = None
    phrase = _TOPIC_TAIL.sub("", text[lead.end() :] if lead else text)
    phrase = re.sub(
        r"\s+(?:propose|proposes|do|does|contribute|contributes|argue|argues|show|shows|say|says|find|"
        r"finds|claim|claims)\W*$",
        "",
        phrase,
        flags=re.IGNORECASE,
    )
    # "how to design benchmarks": the benchmarks are the topic; "design" is said of any method
    # ("methods designed to enhance plasticity" made Hare & Tortoise a benchmark-design paper, c448.1)
    phrase = re.sub(
        r"^how (?:to|should (?:i|we|you|one)|do (?:i|we|you)) (?:design|build|construct|create|set up)\s+(?=\w)",
        "",
        phrase.strip(),
        flags=re.IGNORECASE,
    )
    # "research that critically examines how benchmarks are constructed": what the research does, not the topic
    phrase = re.sub(
        r"^(?:research|work|papers?|studies)\s+(?:that|which)\s+(?:\w+ly\s+)?"
        r"(?:examines?|stud(?:y|ies)|address(?:es)?|looks? at|investigates?|analy[sz]es?|questions?|scrutini[sz]es?|"
        r"critiques?|assess(?:es)?)\s+",
        "",
        phrase.strip(),
        flags=re.IGNORECASE,
    )
    # "interpretability or explainability of models": of what, said of every method; no phrase "explainability
    # models" that an explanation method for "black-box time series models" breaks (c650.1 left it out)
    phrase = re.sub(
        r"\s+of\s+(?:ml\s+|neural\s+|deep\s+)?(?:models?|networks?|nets)\W*$", "", phrase.strip(), flags=re.IGNORECASE
    )
    # "running vision transformers on phones": the models and where they run are the topic; abstracts say
    # "practical use on mobile devices", not "running" (c631.4 was refused)
    phrase = re.sub(r"^(?:running|deploying|serving|executing)\s+(?=\w)", "", phrase.strip(), flags=re.IGNORECASE)
    # "on why pruning at initialization fails": what fails is the topic; the abstract says "unsuccessful"
    # (c649.3 was refused for "fails")
    phrase = re.sub(
        r"^why\s+(.+?)\s+(?:fails?|doesn'?t work|does not work|don'?t work|do not work|breaks? down)\W*$",
        r"\1",
        phrase.strip(),
        flags=re.IGNORECASE,
    )
    # "study what happens when you prune networks at initialization": the pruning is the topic.
    phrase = re.sub(r"^what happens (?:when|if)\s+(?:you |we |one |i )?", "", phrase.strip(), flags=re.IGNORECASE)
    phrase = re.sub(
        r"^(?:a |an |the )?(?:(?:new |novel |better )?(?:method|approach|technique|way)s? (?:for|to|of) )?",
        "",
        phrase.strip(),
        flags=re.IGNORECASE,
    ).strip(" ?.)")
    # "implicit bias, i.e. what kind of solution training ends up at": a gloss restates the topic in
    # everyday words ("solution", "training"), which half the index holds; it names no way to be about it.
    # The other way round, a short gloss after a question in everyday words is the topic's name:
    # "why trained networks end up 'simple', i.e. implicit bias" is about implicit bias.
    gloss = _GLOSS.search(phrase)
    glossed = _GLOSS_MARK.sub("", gloss.group()).strip(" ,.?)") if gloss else ""
    if gloss and _GLOSSED.match(phrase) and not _GLOSSED.match(glossed) and 0 < len(glossed.split()) <= GLOSS_WORDS:
        phrase = glossed
    phrase = _GLOSS.sub("", phrase).strip(" ,")
    # "transformers for something other than text": what is set aside is no part of the topic
    phrase = SET_ASIDE.sub("", phrase).strip(" ,") or phrase
    # "a normally sequential loop": how things usually are, not what to look for
    phrase = _AUDIENCE.sub("", _HEDGES.sub(" ", phrase))
    main, *examples = _EXAMPLES.split(phrase)
    led = lead is not None
    stems = _content(" ".join([main] + examples))
    required = [w for w in dict.fromkeys(stems) if w not in GENERIC]
    # A phrase binds only a concept of one telling word: "diffusion models" is not "diffusion tempering".
    # The words of a phrase stand side by side within one part: "interpretability / explaining models"
    # is two topics, not "interpretability models" (that phrase kept the explanation-method paper out).
    phrases = (
        [
            (a, b)
            for part in (p for x in [main, *examples] for p in _TOPIC_BREAK.split(x))
            for a, b in pairwise(_content(part))
            if a not in GENERIC and b in _PHRASE_HEADS
        ]
        if len(required) == 1
        else []
    )
    # "PDEs or operator learning": each alternative of one telling word binds its head the same way,
    # so the "oper" of "operations" does not make a paper about operator learning.
    for part in _TOPIC_BREAK.split(main):
        part_stems = _content(part)
        if len([w for w in part_stems if w not in GENERIC]) == 1 and len(required) > 1:
            phrases += [(a, b) for a, b in pairwise(part_stems) if a not in GENERIC and b in _PHRASE_HEADS]
    run_on = _RUN_ON.search(question) is not None
    alternatives = _alternatives(main, run_on) + [
        [{w} for w in _content(e) if w not in GENERIC] for x in examples for e in _TOPIC_BREAK.split(x)
    ]
    field_first = (_FIELD_BEFORE_PAPERS.match(text) or _FIELD_OF_PAPERS.match(question)) if led else None
    if field_first:
        # "rl papers w/ world models or learning diverse skills": the field said before "papers" holds for
        # every alternative (c619.1 listed PiT for "diverse PDE benchmarks" and LEO for its "3D world")
        field = {w for w in _content(field_first.group(1)) if w not in GENERIC}
        alternatives = [[*a, set(field)] for a in alternatives] if field else alternatives
        required += [w for w in field if w not in required]
    # "Wasserstein distances or Wasserstein geometry": a name every alternative repeats is what the
    # asker is after; an abstract using it ("the Wasserstein mechanism") is about it.
    named = {w for n in re.findall(r"(?<!^)(?<![.?!]\s)\b[A-Z][a-z]{3,}\b", main) for w in words(n)}
    # "causal inference or causal discovery": a word that leads every alternative of two words names
    # the field the asker means ("Granger causality" is causal discovery in other words).
    # The word is the same as written: "optimal transport or optimization in Wasserstein geometry" share
    # the stem "optim" and no field (c608.4 listed six papers holding "optimal" or "optimization").
    leads = {next((w.lower() for w in re.findall(r"[\w-]+", p) if _content(w)), "") for p in _TOPIC_BREAK.split(main)}
    # "cutting communication ..., or cutting memory ...": a doing said twice is no field (alone, "cut" listed
    # Lookahead decoding for c655.4)
    if (
        len(alternatives) >= 2
        and all(len(a) >= 2 for a in alternatives)
        and len(leads - {""}) == 1
        and not _GERUNDS_JOINED.search(next(iter(leads - {""})))
    ):
        named |= {w for w in alternatives[0][0] if w not in GENERIC and all(w in a[0] for a in alternatives)}
    common = [w for w in named if len(alternatives) >= 2 and all(any(w in slot for slot in a) for a in alternatives)]
    alternatives += [[{w}] for w in common]
    shown = frozenset(w for x in examples for w in _content(x) if w not in GENERIC)
    # "molecules that can actually be made": a hedge taken out leaves no double space in the named concept
    text = re.sub(r"\s{2,}", " ", phrase)
    return Topic(text, required, phrases, led, [a for a in alternatives if a], aside, shown, narrowed, run_on)


# "papers that run experiments on / are evaluated on control benchmarks" (c578.1 left out EWoK, whose
# "DeepMind Control Suite environments" are said in its results sentence)
_RUN_ON = re.compile(
    r"\b(?:run(?:s|ning)?|ran|evaluat(?:e|es|ed|ing)|tested|validated|experiments?|results?)(?: [\w-]+)? (?:on|in)\b",
    re.IGNORECASE,
)


class Rarity:
    """How telling each word is in an index: log inverse document frequency over its papers.

    "optimal transport": "optimal" is in a third of the abstracts, "transport" in two, so a paper
    holding only "optimal" is not about optimal transport. Built once per index snapshot."""

    def __init__(self, documents: Sequence[str]) -> None:
        counts: dict[str, int] = {}
        pairs: set[tuple[str, str]] = set()
        for text in documents:
            sequence = words(text)
            pairs.update(pairwise(sequence))
            for w in set(sequence):
                counts[w] = counts.get(w, 0) + 1
        self.n = len(documents)
        self.counts = counts
        self.pairs = pairs  # adjacent content stems: whether some abstract writes "text-to-video"
        self.documents = [d.casefold() for d in documents]

    @lru_cache(maxsize=256)  # noqa: B019 - one Rarity per index snapshot, a few acronyms per question
    def spelled_out(self, acronym: str) -> bool:
        """Does some indexed paper write the words an acronym stands for ("text-to-speech" for TTS,
        "reinforcement learning from human feedback" for RLHF; a short linking word may be skipped)?"""
        link = r"(?:\W+(?:of|from|for|with|in|on|the|and|a|an))*\W+"
        pattern = re.compile(r"\b" + link.join(f"{re.escape(c)}[a-z]*" for c in acronym.casefold()) + r"\b")
        return any(pattern.search(d) for d in self.documents)

    def written(self, stems: Sequence[str]) -> bool:
        """Does some indexed paper write these stems, side by side in this order (or as one word)?"""
        if not stems:
            return True
        if len(stems) == 1:
            return any(self.counts.get(w, 0) for w in related(stems[0]))
        return "".join(stems) in self.counts or all(pair in self.pairs for pair in pairwise(stems))

    def weight(self, stem: str) -> float:
        """log((N + 1) / (df + 1)) + 0.1, df counting the stem and its paraphrases."""
        df = max((self.counts.get(w, 0) for w in related(stem)), default=0)
        return math.log((self.n + 1) / (df + 1)) + 0.1


def coverage(concept: Topic, title: str, abstract: str, rarity: Rarity | None = None) -> float:
    """Share of the concept's required words (weighted by how telling they are, when ``rarity`` is
    given) that the paper's title or abstract holds, or a paraphrase of them; 0 when one of its
    phrases is broken ("diffusion models" is not "diffusion tempering")."""
    if not concept.required:
        return 0.0
    sequence = words(f"{title}. {abstract}")
    present = set(sequence)
    broken = {a for a, b in concept.phrases if a in present and not _near(sequence, a, b)}
    if broken and len(concept.alternatives) <= 1:
        return 0.0
    present -= broken  # a word whose phrase is broken meets none of its alternative's slots
    if _AS_A_TOPIC.keys() & set(concept.required) and not concept.run_on:
        present -= _benchmarks_run_on(title, abstract)
    # "We first generalize the Wasserstein mechanism": a privacy mechanism named after the distance it
    # uses says the name, not the kind of thing the name is (optimal transport); the name itself still counts.
    followers: dict[str, set[str]] = {}
    for a, b in pairwise([*sequence, ""]):
        followers.setdefault(a, set()).add(b)
    named_only = {w for w in present if followers.get(w) == {_NAMED_HEAD}}

    def weight(slot: set[str]) -> float:
        return max(rarity.weight(w) for w in slot) if rarity else 1.0

    partners = {b for a, b in concept.phrases if a in broken}
    best = 0.0
    for slots in concept.alternatives or [[{w} for w in concept.required]]:
        total = sum(weight(slot) for slot in slots)
        # "causal inference or causal models": the phrase "causal models" is the second alternative's;
        # the first, of two telling words and not the phrase's head, keeps "causal" (c719.3 left out
        # "Causal Inference from Competing Treatments", whose "causal" stands before no "model")
        own = present | broken if len(slots) >= 2 and not any(slot & partners for slot in slots) else present
        met = sum(weight(slot) for slot in _met_slots(slots, own, own - named_only, topic=True))
        best = max(best, met / total if total else 0.0)
    return best


_NAMED_HEAD = tokenize("mechanism")[0]


# A benchmark as a topic ("how to design benchmarks") is what a paper is about only where it names
# benchmarks or datasets; running experiments on tasks, as most papers do, is no paper about them
# (c448.1, c163.1 listed Connect Later and PiT as benchmark-design papers).
_BENCHMARK_WORDS = frozenset(tokenize("benchmark benchmarks bench dataset datasets corpus corpora suite"))
# So is evaluation: "papers abt ml benchmarks / how we evaluate models?" is not answered by every paper
# that evaluates its method (c562.1 listed the diffusion, sharpness, continual-learning and backdoor papers)
_EVALUATION_WORDS = frozenset(tokenize("evaluate evaluates evaluated evaluation evaluations evaluating"))
_AS_A_TOPIC = dict.fromkeys(tokenize("benchmark benchmarks dataset datasets"), _BENCHMARK_WORDS) | dict.fromkeys(
    tokenize("evaluate evaluation evaluations evaluating"), _BENCHMARK_WORDS | _EVALUATION_WORDS
)


# A sentence reporting results: the benchmarks it names are run on, not studied
# ("PiT exhibits superior performance over current state-of-the-art neural operators ... across diverse
# PDE benchmarks")
REPORTS_RESULTS = re.compile(
    r"\b(?:outperform\w*|superior|state-of-the-art|experiments?|experimental\w*|empirical\w*|"
    r"achiev\w+|extensive\w*|we (?:\w+ )?(?:evaluate|test|validate|demonstrate)\w*|"
    # "improves ... on the Atari-100k benchmark": the benchmark it is run on
    r"(?:on|across|over) (?:the |a |[\w-]+ ){0,3}benchmarks?)\b",
    re.IGNORECASE,
)


def _benchmarks_run_on(title: str, abstract: str) -> set[str]:
    """The benchmark words of an abstract said only in sentences reporting results (none of the title)."""
    said, reported = set(words(title)), set[str]()
    for sentence in split_sentences(abstract):
        (reported if REPORTS_RESULTS.search(sentence.text) else said).update(words(sentence.text))
    return (reported & (_BENCHMARK_WORDS | _EVALUATION_WORDS)) - said


def _met_slots(
    slots: Sequence[set[str]], present: set[str], paraphrasing: set[str] | None = None, topic: bool = False
) -> list[set[str]]:
    """The slots the paper's words meet, each by a word of its own: "long contexts" asks for two
    words of one paraphrase group, and "contextual" alone meets one of them, not both. A slot is
    met by its own word in ``present``, or by a paraphrase in ``paraphrasing`` (default: ``present``);
    with ``topic``, a benchmark only by words naming benchmarks (``_AS_A_TOPIC``)."""
    paraphrasing = present if paraphrasing is None else paraphrasing
    used: set[str] = set()
    met: list[set[str]] = []

    def paraphrases(word: str) -> frozenset[str]:
        return _AS_A_TOPIC[word] if topic and word in _AS_A_TOPIC else related(word)

    # Slots met by their own word first, so a paraphrase does not take a word another slot names.
    for slot in sorted(slots, key=lambda slot: not slot & present):
        found = sorted(slot & present - used) or sorted({p for w in slot for p in paraphrases(w) & paraphrasing} - used)
        if found:
            used.add(found[0])
            met.append(slot)
    return met


def holds_phrase(concept: Topic, text: str) -> bool:
    """Does ``text`` hold the concept's words side by side, in its order ("distribution shifts" for
    "distribution shift"), each word itself or a paraphrase? Only concepts of two or more words; a
    concept whose second word is too common to be required ("world models": "models") is its phrase."""
    wanted = concept.required
    if len(wanted) < 2 and concept.phrases:
        wanted = list(concept.phrases[0])
    if len(wanted) < 2:
        return False
    for sentence in split_sentences(text):  # "noise distributions. A shift reduction lemma" is no phrase
        sequence = words(sentence.text)
        if any(
            all(sequence[i + j] == w or sequence[i + j] in related(w) for j, w in enumerate(wanted))
            for i in range(len(sequence) - len(wanted) + 1)
        ):
            return True
    return False


def is_about(concept: Topic, title: str, abstract: str) -> bool:
    """Does the paper hold every required word of ``concept`` (or a paraphrase), phrases intact?"""
    return coverage(concept, title, abstract) == 1.0


def _near(sequence: list[str], first: str, head: str, gap: int = 3) -> bool:
    positions = [i for i, w in enumerate(sequence) if w == first]
    # "Curriculum Reinforcement Learning" reads "curriculum RL": the acronym holds the phrase's head
    return any(
        head in sequence[i + 1 : i + 1 + gap]
        or any(head in _ACRONYM_HEADS.get(w, ()) for w in sequence[i + 1 : i + 1 + gap])
        for i in positions
    )


# The phrase heads an alias token stands for ("RL": reinforcement *learning*, "LLM": language *model*).
_ACRONYM_HEADS = {
    stem: frozenset(tokenize(heads))
    for token, heads in (("RL", "learning"), ("LLM", "model"), ("GNN", "network"), ("ViT", "transformernet"))
    for stem in tokenize(token)
}


@dataclass
class Evidence:
    """The abstract sentences (one, or two in a row) that answer what was asked, and how well."""

    sentences: list[Sentence]
    score: float
    matched: list[str]

    @property
    def text(self) -> str:
        """The evidence as one passage."""
        return " ".join(s.text for s in self.sentences)


def same_root(term: str, present: set[str]) -> bool:
    """Is a word of ``present`` the same word as ``term`` with another ending the stemmer keeps
    ("sparsiti" of sparsity, "spars" of sparse)? Both must be at least five letters long and one
    must begin the other: shorter stems ("form", "train") name too many words."""
    return len(term) >= 5 and any(len(w) >= 5 and (w.startswith(term) or term.startswith(w)) for w in present)


def holds(present: set[str], term: str) -> bool:
    """Does a sentence with the words ``present`` hold ``term``, a paraphrase or another form of it?"""
    return term in present or bool(related(term) & present) or same_root(term, present)


def _score(sentence_words: set[str], terms: Sequence[str], weak: Sequence[str] = ()) -> tuple[float, list[str]]:
    """2 per asked word the sentence holds, 1 per paraphrase; ``weak`` words count a quarter as much
    and only once something else matched."""
    score = 0.0
    matched: list[str] = []
    for term in terms:
        if term in sentence_words:
            score, matched = score + 2.0, matched + [term]
        elif related(term) & sentence_words or same_root(term, sentence_words):
            score, matched = score + 1.0, matched + [term]
    if score:
        score += sum(0.5 if w in sentence_words else 0.25 if related(w) & sentence_words else 0.0 for w in weak)
    return score, matched


def _repeats(sequence: list[str], matched: Sequence[str]) -> int:
    """How many times beyond the first the sentence's words mention the matched terms."""
    return sum(max(0, sum(1 for w in sequence if w == t or w in related(t)) - 1) for t in set(matched))


def sets_scene(sentences: Sequence[Sentence], i: int) -> bool:
    """Is ``sentences[i]`` background: a scene-setting cue, or "it" / "they" going on from such a
    sentence ("However, the existing framework ... has several limitations. It requires ...")?"""
    text = sentences[i].text
    if BACKGROUND_CUE.search(text):
        return True
    return bool(i and _CONTINUES.match(text) and BACKGROUND_CUE.search(sentences[i - 1].text))


def answering(
    abstract: str, terms: Sequence[str], skip: Sequence[str] = (), weak: Sequence[str] = ()
) -> Evidence | None:
    """The sentence (or two consecutive sentences) of ``abstract`` that best answers ``terms``;
    None when no sentence holds any of them. ``skip``: sentences never to pick (pointers, injections)."""
    every = split_sentences(abstract)
    opening = every[0].start if every else -1  # the abstract's first sentence, even when it is skipped
    sentences = [s for s in every if s.text not in skip]
    if not sentences or not terms:
        return None
    scored = [_score(set(words(s.text)), terms, weak) for s in sentences]
    # A sentence that keeps returning to the asked thing ("memory episode ... episodic memories ...
    # gist memories") is about it: half a point per further mention, at most one point.
    scored = [
        (score + min(1.0, 0.5 * _repeats(words(s.text), matched)) if score else score, matched)
        for (score, matched), s in zip(scored, sentences)
    ]
    if set(terms) & _NAMING:  # "what datasets": the sentence that names them
        scored = [
            (score + 0.75 * min(4, len(_NAMES.findall(s.text))) if score else score, matched)
            for (score, matched), s in zip(scored, sentences)
        ]
    best: Evidence | None = None
    for i, (score, matched) in enumerate(scored):
        if score <= 0:
            continue
        # A method or result sentence answers; a background sentence only sets the scene.
        # The opening sentence of an abstract is background unless it states the contribution.
        background = sets_scene(sentences, i) or (
            sentences[i].start == opening and not METHOD_CUE.search(sentences[i].text)
        )
        bonus = 0.5 if METHOD_CUE.search(sentences[i].text) else -2.5 if background else 0
        # A background sentence answers only when it holds two of the asked words: "existing approaches
        # are no longer applicable" does not say which applications a paper shows.
        candidate = (
            Evidence([sentences[i]], score + bonus + _closeness(sentences[i].text), matched)
            if not background or len(set(matched)) >= 2
            else Evidence([sentences[i]], float("-inf"), matched)
        )
        if candidate.score > float("-inf") and (best is None or candidate.score > best.score):
            best = candidate
    return _with_named_before(best, sentences, terms) if best is not None else None


def _with_named_before(best: Evidence, sentences: Sequence[Sentence], terms: Sequence[str]) -> Evidence:
    """ "Existing methods require a draft model. We ... without needing auxiliary models": when the
    answer says the asked thing only in other words, the sentence before it that names it comes too."""
    i = next((k for k, s in enumerate(sentences) if s.start == best.sentences[0].start), 0)
    literal = set(words(best.text)) & set(terms)
    if (
        not literal
        and i > 0
        and BACKGROUND_CUE.search(sentences[i - 1].text)
        and set(words(sentences[i - 1].text)) & set(terms)
        and METHOD_CUE.search(best.text)
    ):
        return Evidence(list(sentences[i - 1 : i + 1]), best.score, best.matched)
    return best


# A sentence opening with a pointer to the one before it ("This raises ...", "They confront ...",
# "Still, more compute ...") says little alone; shown on its own line it takes that sentence along.
_DANGLING = re.compile(
    r"^(?:this|these|those|they|it|its|such|our (?:main )?results? (?:is|are)|however, (?:they|it|this)|"
    r"in this (?:setting|case|context)|"
    r"under this (?:model|setting)|to this end)\b(?! (?:paper|work|study)\b)",
    re.IGNORECASE,
)


# "However, efforts to find these sparse subnetworks ...": which subnetworks, the sentence before says.
# Only of the sentence shown: as the antecedent of another one ("We put forward a theoretical
# explanation for this") it is the context, and the sentence before it one more of background (read
# as padding in c022.2 and c041.3).
_HOWEVER_THESE = re.compile(r"^however, (?:[\w-]+ ){1,4}(?:these|those)\b", re.IGNORECASE)


# "We put forward a theoretical explanation for this, based on ...": "this" standing alone points back.
_POINTS_BACK = re.compile(
    r"\b(?:for|of|explain|explains|address|addresses) this(?=[,.;:])|"
    # "This paper extends this direction", "an implementation of this far-reaching theoretical result"
    r"\b(?:extends?|follows?|continues?|of|on) (?:this|these) (?:[\w-]+ ){0,2}(?:direction|line of work|results?|"
    r"theorems?|ideas?|gap)\b|"
    # "To obtain this result, our main technical contribution is ...": which result is the sentence before
    r"\b(?:obtain|achieve|prove|derive|establish|reach)(?:s|ing)? (?:this|these) (?:[\w-]+ ){0,2}"
    r"(?:results?|bounds?|guarantees?|theorems?|rates?)\b",
    re.IGNORECASE,
)


_PURPOSE = re.compile(
    r"^(?:to this end|to (?:address|tackle|overcome|bridge|close|fill|solve|resolve|mitigate|remedy) (?:this|these|that|those)"
    r"(?: \w+)?),",
    re.IGNORECASE,
)


# "To mitigate these issues, we introduce ...", "Inspired by our analysis of these guarantees, we
# propose ...": a lead clause pointing at sentences not shown. Shown alone, the sentence reads whole from
# its "we" on (read as dangling in c136.1, c137.1, c148.1).
_BACK_LEAD = re.compile(
    r"^(?:(?:to|in order to) (?:address|tackle|overcome|bridge|close|fill|solve|resolve|mitigate|remedy|alleviate|"
    r"avoid|handle|circumvent|fix) (?:this|these|that|those|such|the above)(?: [\w-]+){0,3}|"
    r"(?:inspired|motivated|guided|informed) by [^,]{0,80}?\b(?:this|these|those|such)\b[^,]{0,40}|"
    r"(?:building|based) on (?:this|these|those|such)\b[^,]{0,60}),\s+(?=we\b)",
    re.IGNORECASE,
)


def without_back_lead(text: str, asked: Sequence[str] = ()) -> str:
    """The sentence without a lead clause pointing at what is not shown ("To resolve this issue, we
    introduce X" as "We introduce X"); other sentences, and a lead holding an ``asked`` word ("To
    overcome this efficiency-capability dilemma" asked what trade-off it fights), unchanged."""
    match = _BACK_LEAD.match(text)
    if match is None:
        return text
    lead = set(words(match.group(0)))
    if any(holds(lead, term) for term in asked):
        return text
    rest = text[match.end() :]
    return rest[:1].upper() + rest[1:]


def dangles(text: str) -> bool:
    """Does the sentence open by pointing back ("This unified approach ...", "To this end, ...",
    "However, efforts to find these sparse subnetworks ...")?"""
    return bool(_DANGLING.search(text) or _HOWEVER_THESE.search(text))


def solves_the_one_before(text: str) -> bool:
    """Does the sentence say it answers the issue stated just before it ("To resolve this issue, we
    introduce ...", "To tackle this challenge, ...")? "To this end" follows an aim, not an issue."""
    match = _PURPOSE.match(text)
    # "To address these drawbacks" points at several sentences, not at the one before.
    return match is not None and re.search(r"\b(?:this|that)\b", match.group(0)[8:], re.IGNORECASE) is not None


def _reads_whole(text: str) -> bool:
    """Does a sentence that opens by pointing back still read whole: "To this end, we introduce
    LEO, ...", "To this end, consider a hierarchical RL model where ..." set their own scene."""
    return bool(_PURPOSE.match(text) and (_PROPOSING.search(text) or re.search(r"\bconsider\b", text)))


def points_back(text: str) -> bool:
    """Does the sentence lean on the one before it ("We put forward a theoretical explanation for
    this", "This paper extends this direction") and not read whole on its own?"""
    # "To address this limitation, we explore ...": which limitation is said in the sentence before.
    return bool(_DANGLING.search(text) or _POINTS_BACK.search(text) or solves_the_one_before(text)) and not (
        _reads_whole(text)
    )


def with_antecedent(chosen: Sequence[Sentence], sentences: Sequence[Sentence], finding: bool = False) -> list[Sentence]:
    """``chosen`` with the sentence before a dangling one ("This raises a question ...") added in front;
    with ``finding``, a remedy ("To tackle this challenge, we propose ...") comes with the paper's own
    finding it remedies, said just before it (a single-paper answer has room for it; a list line or a
    comparison cell keeps to the remedy)."""
    out: list[Sentence] = []
    for s in chosen:
        # "To this end, we introduce LEO, ...": a contribution reads whole without the motivation
        # before it, which often points back itself ("We argue these limitations hinder ...").
        # Two steps at most: "To address this limitation" needs "However, it relies on ...", which
        # needs "We first propose C-SOBA" to say what "it" is.
        added: list[Sentence] = []
        current = s
        before = [p for p in sentences if p.end <= s.start]
        if (
            finding
            and solves_the_one_before(s.text)
            and before
            and SHOWS_FINDING.search(before[-1].text)
            and all(before[-1].start != o.start for o in [*out, *chosen])
        ):
            # "Surprisingly, we show that commonly-used transformer world models produce circuitous
            # gradient paths ... To tackle this challenge, we propose AWMs": the challenge is the
            # paper's own finding, which the remedy alone leaves out (read so in q018, c066.2, c117.3).
            added.append(before[-1])
        while (points_back(current.text) or (current is s and _HOWEVER_THESE.search(s.text))) and len(added) < 2:
            before = [p for p in sentences if p.end <= current.start]
            if (
                not before
                or any(before[-1].start == o.start for o in out)
                or any(before[-1].start == c.start for c in chosen)
            ):
                break
            added.insert(0, before[-1])
            current = before[-1]
        out.extend(added)
        out.append(s)
    return out


_OTHERS_METHODS = re.compile(
    r"\b(?:common|existing|prior|previous|standard|conventional|traditional|popular|current|usual|recent) "
    r"(?:\w+ )?(?:methods?|approaches?|techniques?|works?|algorithms?)\b",
    re.IGNORECASE,
)


_SIDE_RESULT = re.compile(
    r"^\W*(?:along the way|as a by-?product|as a side (?:result|effect)|incidentally)\b|"
    # "Finally, we extend our theoretical framework to include ...": where the work goes last, past its
    # result (c653.4 gave it for "is any of them just theory?")
    r"^\W*(?:finally|lastly|in addition|additionally|moreover|furthermore),?\s+we\s+(?:also\s+|further\s+)?"
    r"(?:extend|generali[sz]e|apply|discuss)\b",
    re.IGNORECASE,
)


def stating(
    abstract: str,
    facets: list[Facet],
    terms: Sequence[str],
    skip: Sequence[str] = (),
    names_count: bool = False,
    echoed: Sequence[str] = (),
) -> Evidence | None:
    """The sentence of ``abstract`` that states the asked facets ("what applications", "the main
    finding"), weighed with the asked ``terms`` it holds; None when no sentence has a cue of them.
    ``names_count``: sentences naming datasets or models ("Atari-100k") answer "which" better."""
    every = split_sentences(abstract)
    sentences = [s for s in every if s.text not in skip]
    best: Evidence | None = None
    allow_background = background_ok(facets)
    reported = bool(facets) and all(f.name in _REPORTED for f in facets)
    start = next((s.start for s in every if _PROPOSING.search(s.text) or METHOD_CUE.search(s.text)), None)
    if facets and all(f.own_only for f in facets):
        # "What are its limitations?": what the paper says of its own work, after its contribution.
        sentences = [s for s in sentences if start is not None and s.start > start]
        # "However, it relies on strong assumptions" after "We first propose C-SOBA": said of the
        # paper's own method, not scene-setting, once only sentences after the contribution are left.
        allow_background = True
    if facets and all(f.prior_only for f in facets):
        # "What drawbacks of earlier work does it list?": what is said before the contribution.
        before = [s for s in sentences if start is None or s.start < start]
        if not any(cue_score(s.text, facets, set(echoed)) > 0 for s in before):
            # "We introduce a neural-preconditioned iterative solver ... Unfortunately, effective
            # preconditioners like multigrid require costly setup phases ...": an abstract opening with
            # its contribution tells of earlier work after it, in sentences not its own (c475.2)
            before = [s for s in sentences if not _OWN_WORK.search(s.text)]
        sentences = before
    proposed = next((s.start for s in every if _PROPOSING.search(s.text)), -1)
    defining = any(f.name == "definition" for f in facets)
    theory_asked = any(f.name == "theory" for f in facets) and not any(f.name == "evaluation" for f in facets)
    result_asked = any(f.name in ("theory", "findings") for f in facets)
    applied = any(f.name == "applications" for f in facets)
    for s in sentences:
        cue = cue_score(s.text, facets, set(echoed))
        if cue <= 0:
            continue
        term_score, matched = _score(set(words(s.text)), terms)
        background = (
            BACKGROUND_CUE.search(s.text)
            or (s.start == every[0].start and not METHOD_CUE.search(s.text))
            # "Furthermore, this framework does not provide the composition guarantees ...": what
            # earlier work lacks, said before the contribution, is not what the paper gives.
            # "In this paper, we show ... does not consistently improve ..." is the paper's own finding.
            or (s.start < proposed and _LACKS.search(s.text) is not None and not METHOD_CUE.search(s.text))
            # "common methods designed to enhance plasticity by maintaining trainability provide
            # limited benefits", said before the paper's own method: how others do it.
            # "the usual approach being to train ... using paired data", "A recent seminal work (InvLINT)
            # demonstrates ...", said before "This paper extends this direction": what others do.
            or (s.start < max(proposed, -1 if start is None else start) and _OTHERS_METHODS.search(s.text) is not None)
        )
        score = cue + term_score + (-2.5 if background and not allow_background else 0.0)
        if background and allow_background and applied and not _APPLIED.search(s.text):
            # "what can it actually be used for?": "Numerous generative models have recently been introduced to
            # accelerate the drug discovery process ... experimental validation" sets the scene; "We highlight
            # the model's ability to: (a) perform bottom-up synthesis planning ..." is what this paper's model
            # is for (c593.4). A scene naming the domains ("in various domains, including Gaussian
            # barycenter, matrix recovery") still answers (c025.3).
            score -= 1.0
        if _META.search(s.text):
            # "We discuss the implications of our work for ..., where they overturn some
            # time-honored recommendations" talks about a finding without stating it.
            score -= 2.5
        if reported and _PROPOSING.search(s.text):
            # "we propose ReadAgent, ... up to 20x in our experiments" names what the paper is;
            # "These evaluations are performed on QuALITY, ..." says what was tested.
            score -= 2.5
        if names_count:
            # A name said again and again is the paper's own method or field ("FedPIN", "PFL"), not a
            # dataset it was tested on: half the weight (c584.2 gave FedPIN's bound for its datasets)
            found = _NAMES.findall(s.text)
            score += 0.5 * min(4.0, sum(1.0 if abstract.count(n) == 1 else 0.5 for n in found))
        if theory_asked and _EMPIRICAL.search(s.text):
            # "Inspired by Arrow's theorem, we empirically demonstrate a trade-off" is an empirical
            # result; "We apply Arrow's impossibility theorem to ordinal benchmarks" is the theory.
            score -= 2.5
        if result_asked and _SIDE_RESULT.match(s.text):
            # "Along the way, we discover a novel property ... which links sharpness to ...": found on the
            # way to the result, not the result (c628.3 gave it for the sharpness paper's main result)
            score -= 1.5
        if defining and matched and words(s.text)[:1] == [matched[0]]:
            # "what does diversity mean?": "Diversity captures the degree of disagreement ..." has the
            # word as its subject; "new quantitative measures of diversity" only names the measure.
            score += 1.0
        if score <= 0:
            # "Many applications of RCTs involve ... field experiments ...": scene-setting that only
            # shares a cue word states nothing about this paper.
            continue
        score += _closeness(s.text)  # only once the rules accept it: closeness picks among those
        said = _with_statement(s, sentences) if result_asked else [s]
        if len(said) > 1:
            score += 1.0  # an announced result with its statement says the result twice over
        if best is None or score > best.score:
            best = Evidence(said, score, matched)
    if best is not None and len(best.sentences) == 1:
        # "What savings does each claim": the saving is what is asked, "claim" only how.
        # "The main theoretical result": a comparison on benchmarks is no further theoretical result.
        theory = any(f.name == "theory" for f in facets)
        further = [f for f in facets if f.name in _MORE_OF and not (theory and f.name == "findings")]
        # "How does ParaTAA speed up sampling?": how it does it ("Specifically, we reformulate ...")
        # before the figure of the saving
        for facet in sorted(further, key=lambda f: (f.name != "mechanism", f.name == "findings")):
            more = _with_more_stated(best.sentences[0], sentences, facet, terms)
            if len(more) > 1:
                best.sentences = more
                break
    if best is not None and all(f.prior_only for f in facets):
        # "... has several limitations. It requires ... Moreover, most of them cannot ...": the
        # shortcomings are listed in the sentences that go on from the one announcing them.
        after = [s for s in sentences if s.start > best.sentences[-1].start]
        for s in after[:2]:
            if not _GOES_ON_LISTING.match(s.text):
                break
            best.sentences.append(s)
    if (
        best is not None
        and any(f.name == "requirement" for f in facets)
        and proposed >= 0
        and all(s.start < proposed for s in best.sentences)
    ):
        # "does it need a draft model?": "Existing methods ... often require a draft model" says what
        # others need; the paper's own word on it ("without needing auxiliary models") is the answer.
        own = next((s for s in sentences if s.start >= proposed and _REQUIREMENT_SAID.search(s.text)), None)
        if own is not None:
            best.sentences = [*best.sentences, own]
    if best is not None and len(best.sentences) == 1:
        best = _with_named_before(best, sentences, terms)
    defined = [f for f in facets if f.name == "definition"]
    if best is not None and not (defined and all(defined[0].states.search(s.text) for s in best.sentences)):
        # "what quantity do they define?": "... the effective parameter count, p_eff, given by ..." says
        # what is defined; what "this" points back to does not help (read as padding in c143.2)
        best.sentences = with_antecedent(best.sentences, sentences)
    return best


# A sentence saying where something is applied, beyond a word of evaluation
_APPLIED = re.compile(rf"\b(?:{APPLIED_CUES})\b", re.IGNORECASE)
_OWN_WORK = re.compile(r"\b(?:we|our|us)\b", re.IGNORECASE)
_EMPIRICAL = re.compile(r"\b(?:empirical\w*|experiments?|experimental\w*)\b", re.IGNORECASE)
# "We prove a theorem that runs counter to conventional wisdom.": a result announced, not said;
# the sentence after it says it ("If the goal is ..., we show it's best to ...").
_ANNOUNCES = re.compile(
    r"^(?:here,? )?we (?:\w+ )?(?:prove|establish|derive|obtain|present|show|find) (?:a|an|two|three|several|new|some)\b"
    r"[^,;:]*\b(?:theorems?|results?|findings?|bounds?|facts?)\b",
    re.IGNORECASE,
)
_ANNOUNCED_WORDS = 14
_STATES_RESULT = re.compile(r"\bwe (?:\w+ )?(?:show|prove|find|establish)\b|\bit(?:'|’)s best\b", re.IGNORECASE)


def _with_statement(first: Sentence, sentences: Sequence[Sentence]) -> list[Sentence]:
    """``first`` and the sentence right after it, when ``first`` only announces a result ("We prove a
    theorem that runs counter to conventional wisdom.") and the next one states it."""
    if len(words(first.text)) > _ANNOUNCED_WORDS or not _ANNOUNCES.search(first.text):
        return [first]
    after = next((s for s in sentences if s.start >= first.end), None)
    if after is None or not _STATES_RESULT.search(after.text):
        return [first]
    return [first, after]


_REQUIREMENT_SAID = re.compile(
    r"\b(?:without (?:\w+ing |the need|any )?|no need|does not (?:need|require|rely)|(?:\w+-)?free\b|"
    r"(?:need|require|rely on)s? only\b|only (?:need|require)s?\b)",
    re.IGNORECASE,
)


_LACKS = re.compile(r"\b(?:does not|do not|cannot|can't|fails? to|lacks?|is not|are not)\b", re.IGNORECASE)
_GOES_ON_LISTING = re.compile(
    r"^(?:it|they|this|these|moreover|furthermore|also|in addition|additionally|first|second|third|finally|"
    r"besides|further)\b",
    re.IGNORECASE,
)


def _with_more_stated(
    first: Sentence, sentences: Sequence[Sentence], facet: Facet, terms: Sequence[str] = ()
) -> list[Sentence]:
    """``first`` and the sentence, after the paper's proposal, that states the same facet with
    something ``first`` does not say and is most about the same thing (holding the asked
    ``terms``): further things tested on ("a finite state machine dataset ..." then "Transformer
    language models ... on two natural language datasets"), the figures of a saving ("2x less
    memory" after "memory savings improve with batch size"; up to two), a comparison for a
    finding, more applications; for a how-question the step that goes on. "What did each test on /
    save / report / apply it to" asks for all of them."""
    if (dangles(first.text) or _POINTS_BACK.search(first.text)) and not _reads_whole(first.text):
        return [first]  # it comes with the sentence before it already: two sentences are enough
    if facet.name == "mechanism":
        return with_next_step(first, sentences)
    more = _MORE_OF[facet.name]
    # What a paper reports follows what it proposes; before that, "MeZO ... has been shown to
    # outperform zero-shot learning" is earlier work.
    proposed = next((s.start for s in sentences if _PROPOSING.search(s.text)), 0)
    candidates = []
    for s in sentences:
        # "we develop EBBA, to detect backdoored models without task-specific samples": what a paper drops
        # is said as it proposes each part, so a proposing sentence may state it.
        proposing = _PROPOSING.search(s.text) is not None and facet.name != "removal"
        if s.start == first.start or s.start < proposed or BACKGROUND_CUE.search(s.text) or proposing:
            continue
        # "(e.g., analyzing the scientific principles underlying experiments)": an example in
        # brackets states nothing the paper did.
        said = _BRACKETED.sub(" ", s.text)
        if len(words(s.text)) > _MORE_MAX_WORDS or not facet.states.search(said) or not more.search(said):
            continue
        # "what *memory* savings": a further sentence holds the asked words too.
        if _adds(first.text, s.text, facet.name) and (not terms or any(holds(set(words(s.text)), t) for t in terms)):
            candidates.append(s)
    if not candidates:
        return [first]
    # Of several, the one about the same thing: after "memory savings improve with batch size", the
    # 2x memory footprint, not the 2x GPU-hours said earlier.
    own = set(words(first.text)) - GENERIC
    ranked = sorted(candidates, key=lambda s: (-len(own & set(words(s.text))), s.start))
    # "What savings does each claim": every figure ("2x memory" and "2x fewer GPU-hours"), up to two.
    chosen = ranked[:2] if facet.name == "savings" else ranked[:1]
    return sorted([first, *chosen], key=lambda x: x.start)


def with_next_step(first: Sentence, sentences: Sequence[Sentence]) -> list[Sentence]:
    """``first`` and the sentence right after it when that one goes on about the same thing ("a
    novel LLM-driven planner based on Monte Carlo Tree Search ..." then "The planner iteratively
    finds feasible solutions by backpropagating the result's reward"): "how does it plan" asks for
    the steps, which abstracts spread over two sentences."""
    after = [s for s in sentences if s.start >= first.end]
    # "... what we call codebook features." then "Codebook features are produced by ...": it goes on
    # about what the sentence before named.
    goes_on = _GOES_ON.match(after[0].text) or _DANGLING.search(after[0].text) if after else False
    if not after or not (goes_on or _names_again(first.text, after[0].text)):
        return [first]
    if _COMPARES.search(after[0].text) or _EVALUATES.search(after[0].text):
        return [first]  # "LookFast speeds up generation by 2.3x": a result, not how it works
    shared = (set(words(first.text)) & set(words(after[0].text))) - GENERIC
    return [first, after[0]] if shared else [first]


def _names_again(first: str, after: str) -> bool:
    """Does ``after`` open with two words ``first`` ends up naming ("codebook features"), or name
    the method ``first`` introduces ("we propose ReadAgent ..." then "we implement ReadAgent as ...")?"""
    opening = re.findall(r"[\w-]+", after)[:2]
    if (
        len(opening) == 2
        and " ".join(opening).lower() in first.lower()
        and not set(words(" ".join(opening))) <= GENERIC
    ):
        return True
    introduced = set(_NAMES.findall(first)) if _PROPOSING.search(first) else set()
    return bool(introduced & set(_NAMES.findall(after)) - _COMMON_NAMES)


_COMMON_NAMES = {"LLM", "LLMs", "AI", "ML", "RL", "GPU", "GPUs", "NLP"}
_EVALUATES = re.compile(r"\b(?:we (?:\w+ )?(?:evaluate|validate|test)|experiments?|speeds? up)\b", re.IGNORECASE)


# "The planner ...", "This structured representation ...", "It enables ...": a sentence that goes on.
# "... by parallelizing the autoregressive process." then "Specifically, we reformulate the sampling
# process as ...": the next sentence goes on with the details
_GOES_ON = re.compile(r"(?:the|this|these|it|its|such|specifically|concretely|more precisely|namely)\b", re.IGNORECASE)


def _adds(first: str, further: str, facet: str) -> bool:
    """Does ``further`` say something of the facet that ``first`` does not: new names or figures
    (datasets, models, "2x"), a comparison ``first`` lacks, or, for applications, new words?"""
    if facet in ("applications", "removal"):
        return len(set(words(further)) - set(words(first))) >= 3
    if facet == "findings":
        return _COMPARES.search(further) is not None and _COMPARES.search(first) is None
    if facet == "theory":
        # "a tighter bound on generalization error" then "a guarantee on the convergence rate": a
        # second result, of another kind, is half of what "what does each prove" asks.
        kinds = {k.lower()[:5] for k in _THEORY_RESULT.findall(further)} - {
            k.lower()[:5] for k in _THEORY_RESULT.findall(first)
        }
        return bool(kinds)
    figures = set(re.findall(r"\d+(?:\.\d+)?", further)) - set(re.findall(r"\d+(?:\.\d+)?", first))
    if facet == "savings":
        # After a vague saving ("to overcome this efficiency-capability dilemma, we propose ..."), the
        # sentence naming how much or what ("linear-time complexity on mobile devices") completes it.
        if figures or re.search(r"\d", first):
            return bool(figures)
        cues = {c.lower() for c in _SAVING_CUE.findall(further)} - {c.lower() for c in _SAVING_CUE.findall(first)}
        return bool(cues)
    return bool(figures | (set(_NAMES.findall(further)) - set(_NAMES.findall(first))))


_SAVING_CUE = re.compile(
    r"\b(?:linear(?:-time)? complexity|lower (?:cost|latency|memory|complexity)|reductions? in \w+|"
    r"(?:less|fewer) \w+|speed-?ups?|faster \w+)",
    re.IGNORECASE,
)
# The kinds of a theoretical result, told apart by their first five letters ("bound", "guara", "conve").
_THEORY_RESULT = re.compile(
    r"\b(?:bounds?|guarantee\w*|convergence|rates?|lemmas?|theorems?|impossib\w+|proofs?)\b", re.IGNORECASE
)
_BRACKETED = re.compile(r"\([^()]*\)")
_MORE_MAX_WORDS = 45  # a longer sentence would double the line; the first one already answers
_COMPARES = re.compile(
    r"\b(?:state-of-the-art|outperform\w*|surpass\w*|competitive|close to|better than|on par)\b|"
    r"\d+(?:\.\d+)?\s*(?:x\b|×|%|times)",
    re.IGNORECASE,
)
# What the further sentence must hold, per facet: "validate ... on", "train ... on two natural
# language datasets", "applying ParaTAA with 100 steps DDIM for Stable Diffusion" say what something
# was run on; a saving is a figure; a finding a comparison; applications a list or a field.
_MORE_OF = {
    # A further evaluation is said with a strong cue: "address tasks across different domains" is not one.
    "evaluation": re.compile(
        r"^(?=.*\b(?:experiments?|benchmarks?|datasets?|evaluat\w+|tested|we (?:\w+ )?(?:validate|test|train)\w*|"
        r"applying [\w-]+ (?:to|on|for|with))\b)(?=.*\b(?:on|for|across|including|such as)\b)",
        re.IGNORECASE,
    ),
    "savings": re.compile(r"\d+(?:\.\d+)?\s*(?:x\b|×|%|times)|\\times|" + _SAVING_CUE.pattern, re.IGNORECASE),
    "findings": _COMPARES,
    "mechanism": _GOES_ON,  # handled by with_next_step: the sentence right after, going on
    "applications": re.compile(
        r"\b(?:including|such as|arise in|applications? (?:to|in|of)|appl(?:y|ied|ying) \w+)\b", re.IGNORECASE
    ),
    # "What does each prove?": a further result said as one (a bound, a guarantee, a rate, a proof).
    "theory": re.compile(
        r"\b(?:theor\w+ (?:analysis|results?|guarantees?)|we (?:\w+ )?prove|guarantee\w*|bounds?)\b", re.IGNORECASE
    ),
    # "What does each get rid of?": EBBA detects without task-specific samples, EBBA+ removes without
    # retraining; each part's own "without" is half the answer.
    "removal": re.compile(r"\b(?:without|eliminat\w+|(?:\w+-)?free|no longer|relax\w*|dispens\w+)\b", re.IGNORECASE),
}


_META = re.compile(
    r"\bwe (?:also |further |briefly )?(?:discuss|outline|comment on)\b|"
    r"\bimplications of (?:our|this|the) (?:work|results?|findings?)\b",
    re.IGNORECASE,
)

# Facets a paper reports after proposing its method: what it was tested on, applied to, found.
_REPORTED = frozenset({"evaluation", "applications", "findings", "hardware"})

# "We show that ...": a finding, which motivates what a paper proposes rather than being it.
SHOWS_FINDING = re.compile(r"\bwe (?:\w+ )?(?:show|find|observe|reveal)\b", re.IGNORECASE)
_PROPOSING = re.compile(
    r"\b(?:we (?:\w+ly |therefore |thus |also |then |further |first |here )?(?:propose|introduce|present|"
    r"develop|design|devise|put forward)|this (?:paper|work) (?:proposes|introduces|presents|develops))\b",
    re.IGNORECASE,
)


def what_it_does(abstract: str, title: str = "", skip: Sequence[str] = ()) -> Sentence | None:
    """The sentence that says what the paper does: what it proposes, else its first contribution
    sentence ("we show ..."), else the first sentence after the background, else the first."""
    sentences = [s for s in split_sentences(abstract) if s.text not in skip]
    if not sentences:
        return None
    for s in sentences:
        if METHOD_CUE.search(s.text):
            if SHOWS_FINDING.search(s.text) and not _PROPOSING.search(s.text):
                # "We show that standard fine-tuning does not help ... we propose Connect Later": what
                # the paper proposes says what it does better than the finding that motivates it.
                return next((p for p in sentences if p.start > s.start and _PROPOSING.search(p.text)), s)
            return s
    for s in sentences:
        if not BACKGROUND_CUE.search(s.text):
            return s
    return sentences[0]


# A clause whose main statement is still to come: "... prove that in the X setting", "... show that,
# for any data", or one that ends on a preposition.
_OPEN_CLAUSE = re.compile(
    r"\bthat,?\s+(?:in|for|on|under|when|if|with|as|at|by|given)\b|\b(?:that|of|in|on|for|to|with|by)$",
    re.IGNORECASE,
)


def trim(sentence: str, terms: Sequence[str], max_words: int = 45) -> str:
    """A long sentence cut to the clause that holds the asked terms; short sentences stay whole."""
    if len(sentence.split()) <= max_words:
        return sentence
    clauses = [c.strip() for c in _CLAUSE_BREAK.split(sentence) if c.strip()]
    if len(clauses) < 2:
        return sentence
    best = max(clauses, key=lambda c: (_score(set(words(c)), terms)[0], -clauses.index(c)))
    if len(best.split()) < 6:  # a stub clause says too little on its own
        return sentence
    if best is not clauses[-1] and _OPEN_CLAUSE.search(best):
        # "We first prove that in the GOTU setting, where ..., the convergence takes place ...": what
        # it proves comes after the break, so the first clause alone is a fragment.
        return sentence
    before = clauses[clauses.index(best) - 1] if best is not clauses[0] else ""
    if before and _OPEN_CLAUSE.search(before):
        # "... prove that in the GOTU setting, where training data is fully seen ..., the convergence
        # takes place ...": the statement opened before the break goes on in this clause; alone it
        # reads as a bare claim without "we prove" (c500.1)
        return sentence
    best = best[:1].upper() + best[1:]
    return best if best.endswith((".", "!", "?")) else best.rstrip(",:") + "."
