"""The words of reinforcement learning: how its scientists ask for the methods of the ``rl`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, no_data

_NUM = r"\d+(?:\.\d+)?"
#: a small number in words, as counts are written ("five random problems", "twenty episodes")
_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|hundred)"
#: a probability or a share as written: "10%", "0.1", "30 percent"
_RATE = r"(?:\d+(?:\.\d+)?\s*(?:%|percent\b|per cent\b)|0?\.\d+|0|1(?:\.0+)?)(?![.,]?\d)"
#: a number written alone, not an end of a range or a choice ("40 or 60 episodes": no single value)
_ALONE_BEFORE = r"(?<!\d, )(?<!\d,)(?<!\bor )(?<!\band )(?<!\bto )(?<![-–—…])"
#: a count as written, in digits or in words, alone ("five random problems", not "2, 3 layers")
_COUNT = rf"((?:{_ALONE_BEFORE}\d[\d,]*)|(?<!\bor )(?<!\band )(?<!\bto ){_WORD}\b)"
_ALONE_AFTER = r"(?![.,]?\d)(?!\s*(?:[-–—…]|\.\.|\bto\b|\bor\b|\band\b|,)\s*\d)"

field_words(
    "rl.diffusion_world_model",
    intents=(
        "Train a diffusion model of the environment's dynamics from logged episodes and use its synthetic transitions.",
        "Generate trajectories conditioned on the desired return and check they follow the dynamics.",
        "Offline reinforcement learning with data augmented by a learned world model.",
    ),
    cues={r"\bworld model\b": 3.0, r"\bdiffusion\b": 1.5, r"\binverse dynamics\b": 2.5, r"\boffline (?:RL|"
          r"reinforcement)\b": 2.5, r"\breturn[- ]to[- ]go\b": 2.5, r"\bpendulum\b": 1.0,
          r"\bsynthetic transitions\b": 2.0, r"\blogged episodes\b": 1.5},
    data=no_data,
    arguments={
        # a free string (a gymnasium id); the method runs these two continuous-action tasks
        "environment": {
            "MountainCarContinuous-v0": [r"\bmountain[\s_-]*car(?:[\s_-]*continuous)?\b"],
            "Pendulum-v1": [r"\bpendulum\b"],
        },
        # "horizon 6", "guidance of 2", "40 episodes" (alone) are read by the arguments' own names
        "episodes": [rf"\b(?:log(?:s|ged|ging)?|(?:record|collect|gather)(?:s|ed|ing)?)\s+(\d[\d,]*|{_WORD})\s+(?:[\w-]+\s+){{0,2}}?episodes\b",
                     rf"\b{_COUNT}\s+(?:logged|recorded|offline|behaviou?r[- ]policy|training)\s+"
                     rf"episodes\b"],
        "eval_episodes": [r"\bevaluat\w*\s+(?:each\s+polic(?:y|ies)\s+|the\s+polic(?:y|ies)\s+)?(?:on|over|for)\s+"
                          rf"(\d+|{_WORD})\s+episodes\b{_ALONE_AFTER}",
                          rf"\b{_COUNT}\s+evaluation\s+episodes\b"],
        "behaviour_noise": [rf"\b(?:action|behaviou?r(?:[- ]policy)?|exploration)\s+noise\s*(?:of\s+|=\s*|:\s*|at\s+)?"
                            rf"({_RATE}){_ALONE_AFTER}",
                            rf"\bnoise\s+(?:on|in)\s+the\s+(?:[\w']+\s+){{0,2}}?actions?\s*(?:of\s+|=\s*|:\s*)?"
                            rf"({_RATE}){_ALONE_AFTER}",
                            # "action noise a fifth of the action range"
                            r"\b(?:action|behaviou?r(?:[- ]policy)?|exploration)\s+noise\s+(?:of\s+|at\s+|is\s+|\(\s*)?"
                            r"((?:a|one)\s+(?:half|third|quarter|fifth|tenth|twentieth)|\d+(?:\.\d+)?\s*(?:%|per\s*cent))"
                            r"\s+of\s+the\s+(?:action\s+)?range\b",
                            # "its actions jittered by noise of 20% of the action range"
                            r"\b(?:jitter\w*|perturb\w*|noisy|noise)\b[^.;]{0,30}?\bnoise\s+(?:of\s+)?"
                            r"((?:a|one)\s+(?:half|third|quarter|fifth|tenth|twentieth)|\d+(?:\.\d+)?\s*(?:%|per\s*cent))"
                            r"\s+of\s+the\s+(?:action\s+)?range\b"],
        "horizon": [rf"\bhorizon\s+H\s*=\s*(\d+){_ALONE_AFTER}",
                    rf"\bnext\s+(\d+|{_WORD})\s+(?:time\s*)?steps\b",
                    rf"\b{_ALONE_BEFORE}(\d+)-step\s+(?:windows?|horizons?|segments?|chunks?|trajector(?:y|ies))\b",
                    # "on four-step windows"
                    rf"\b(?<!\bor\s)(?<!\band\s)({_WORD})[- ]step\s+(?:windows?|horizons?|segments?|chunks?)\b",
                    rf"\bwindows?\s+of\s+(?:only\s+|just\s+)?(\d+|{_WORD})\s+(?:time\s*)?steps\b",
                    # "should generate 4 future steps per window"
                    rf"\b(?:generat|predict|roll\w*\s+out|produc)\w*\s+(\d+|{_WORD})\s+(?:future\s+|time\s*)?steps\b"],
        "rtg_levels": [rf"\b{_COUNT}\s+(?:requested\s+|target\s+|desired\s+)?"
                       r"(?:return[- ]to[- ]go|RTG)\s+levels\b",
                       rf"\b(?:return[- ]to[- ]go|RTG)\s+levels\s*(?:=\s*|:\s*|of\s+)?(\d+)\b{_ALONE_AFTER}",
                       rf"\b{_COUNT}\s+(?:requested|target|desired)\s+returns(?:[- ]to[- ]go)?\b"],
        "guidance": [rf"\bguidance\s+(?:scale|weight|strength)\s*(?:w\s*)?(?:of\s+|=\s*|:\s*)?({_NUM})\b"
                     rf"{_ALONE_AFTER}",
                     rf"\bguidance\s+w\s*=\s*({_NUM})\b{_ALONE_AFTER}",
                     # "push the return guidance up to 3", "guidance at 2.5"
                     rf"\bguidance\s+(?:scale\s+|weight\s+)?(?:up\s+to|at|of|=)\s+({_NUM})\b{_ALONE_AFTER}",
                     # "with the guidance scale on the return at 2"
                     rf"\bguidance\s+(?:scale|weight)\s+on\s+the\s+returns?\s+(?:at|of|=|to)\s+({_NUM})\b{_ALONE_AFTER}",
                     # "switch guidance off (scale 1, plain conditioning)": the documented scale of no guidance
                     (r"\b(?:switch|turn)\w*\s+(?:the\s+)?(?:return\s+|classifier-free\s+)?guidance\s+off\b|"
                      r"\bguidance\s+(?:switched\s+|turned\s+)?off\b|\bwithout\s+(?:any\s+)?(?:classifier-free\s+)?guidance\b",
                      1.0)],
        "diffusion_steps": [r"\b(\d+)\s+(?:diffusion|denoising|DDPM)\s+steps\b",
                            rf"\b(?:diffusion|denoising|DDPM)\s+steps\s*(?:K\s*)?(?:=\s*|:\s*|of\s+)?(\d+)\b"
                            rf"{_ALONE_AFTER}"],
        "train_steps": [r"\btrain\w*\s+the\s+diffusion\s+model\s+for\s+(\d[\d,]*)\s+(?:gradient\s+)?steps\b",
                        # "4,000 gradient steps for the diffusion part"
                        r"\b(\d[\d,]*)\s+(?:gradient|training)\s+steps\s+for\s+the\s+diffusion\b",
                        # "train it on windows of 6 steps, with 24 denoising steps, for 8,000 gradient steps"
                        r"\btrain\w*\s+(?:it|the\s+(?:[\w-]+\s+){0,3}?model)\b[^.;]{0,80}?\bfor\s+(\d[\d,]*)\s+"
                        r"(?:gradient|training|optimi[sz](?:er|ation))\s+steps\b",
                        # "Fit the diffusion world model (...) and its inverse-dynamics network ... for 8,000 steps"
                        r"\b(?:fit|train)\w*\s+the\s+diffusion\s+(?:world\s+)?model\b[^.;]{0,160}?\bfor\s+(\d[\d,]*)\s+"
                        r"(?:gradient\s+|training\s+)?steps\b",
                        r"\b(\d[\d,]*)\s+(?:gradient\s+)?steps\s+(?:of|for)\s+the\s+diffusion\s+model\b",
                        # "fit the diffusion world model — ... — on four-step windows, with 16 denoising steps and 6,000
                        # gradient steps"
                        r"\b(?:fit|train)\w*\s+the\s+diffusion\s+(?:world\s+)?model\b[^.;]{0,240}?\b(?:and|with)\s+(\d[\d,]*)\s+"
                        r"gradient\s+steps\b"],
        "idm_steps": [r"\b(\d[\d,]*)\s+(?:inverse[- ]dynamics|IDM)\s+(?:training\s+|gradient\s+)?steps\b",
                      r"\b(?:inverse[- ]dynamics|IDM)\s+(?:model\s+)?(?:for|with)\s+(\d[\d,]*)\s+steps\b"],
        "synthetic_ratio": [rf"\b({_NUM})\s+synthetic\s+transitions?\s+(?:per|for\s+each)\s+(?:logged|real)\s+"
                            rf"transition\b",
                            rf"\bsynthetic[- ]to[- ]real\s+ratio\s*(?:of\s+|=\s*|:\s*)?({_NUM})\b{_ALONE_AFTER}",
                            # "once with one synthetic transition per logged one"
                            rf"\b({_NUM}|one|two|three|half\s+a)\s+synthetic\s+transitions?\s+(?:per|for\s+each|for\s+every)\s+"
                            r"(?:logged|real)\s+(?:one|transition)\b",
                            # "add as many synthetic transitions as there are logged ones"
                            (r"\bas\s+many\s+synthetic\s+(?:transitions|samples)\s+as\s+(?:there\s+are\s+)?(?:logged|real|"
                             r"collected|recorded)\b", 1.0)],
        "rtg_discount": [r"\b(?:return[- ]to[- ]go\s+)?discount(?:\s+factor)?\s*(?:γ\s*)?(?:of\s+|=\s*|:\s*)?"
                         rf"(0?\.\d+|1(?:\.0+)?){_ALONE_AFTER}"],
        # the offline policy comparison (TD3+BC with and without synthetic data) is skipped by 0 steps
        "policy_steps": [r"\b(\d[\d,]*)\s+(?:TD3\+BC|policy)\s+(?:gradient\s+|training\s+)?steps\b",
                         r"\bTD3\+BC\s+(?:for|with|over)\s+(\d[\d,]*)\s+(?:gradient\s+|training\s+)?steps\b",
                         # "2000 gradient steps per policy", "800 steps for each policy"
                         r"\b(\d[\d,]*)\s+(?:gradient\s+|training\s+)?steps\s+(?:per|for\s+each|for\s+every|each)\s+"
                         r"(?:TD3\+BC\s+)?polic(?:y|ies)\b",
                         # "train each TD3+BC policy for 1000 steps"
                         r"\b(?:TD3\+BC\s+)?polic(?:y|ies)\s+(?:for|with|over)\s+(\d[\d,]*)\s+(?:gradient\s+|training\s+)?steps\b",
                         rf"\bpolicy\s+steps\s*(?:=\s*|:\s*|of\s+)?(\d[\d,]*){_ALONE_AFTER}",
                         (r"\bskip(?:s|ping)?\s+(?:the\s+)?(?:offline\s+)?(?:TD3\+BC\s+)?polic(?:y|ies)"
                          r"(?:\s+(?:comparison|training|learning|evaluation|part))?\b", 0),
                         (r"\b(?:only|just)\s+(?:want\s+|need\s+)?the\s+world[- ]model\s+diagnostics\b", 0),
                         # "skip the TD3+BC training entirely"
                         (r"\bskip(?:s|ping)?\s+(?:the\s+)?(?:offline\s+)?TD3\+BC(?:\s+(?:training|comparison|part|step|"
                          r"polic(?:y|ies)))?(?![\w+])", 0),
                         (r"\bwithout\s+(?:the\s+)?(?:offline\s+)?policy\s+(?:comparison|training|learning)\b", 0)],
    },
    # the world model runs two small continuous-control tasks; a task that names another is asked back
    unoffered={"environment": {
        f"the {name} environment": [rf"\b{pattern}(?:[-_]v\d)?\b"] for name, pattern in (
            ("Hopper", r"hopper"), ("HalfCheetah", r"half[\s_-]*cheetah"), ("Walker2d", r"walker[\s_-]*2d"),
            ("Ant", r"Ant(?=-v\d)"), ("Humanoid", r"humanoid"), ("Reacher", r"reacher"), ("Swimmer", r"swimmer"),
            # "swing up the inverted pendulum" is the pendulum task itself; only the gymnasium id names the other
            ("InvertedPendulum", r"(?-i:Inverted(?:Double)?Pendulum)"), ("LunarLander", r"lunar[\s_-]*lander"),
            ("BipedalWalker", r"bipedal[\s_-]*walker"), ("CarRacing", r"car[\s_-]*racing"),
            ("CartPole", r"cart[\s_-]*pole"), ("Acrobot", r"acrobot"))}},
)

field_words(
    "rl.distinguishability_queries",
    intents=(
        "Learn a reward function from human feedback: are 'how different are these' questions better than pairwise preferences?",
        "Compare preference queries with distinguishability queries for reward learning on the same budget.",
        "How should we ask labellers about pairs of trajectories to learn their reward most efficiently?",
    ),
    cues={r"\breward (?:learning|model|function)\b": 2.0, r"\bpairwise (?:comparisons|preferences)\b": 2.5,
          r"\bpreference(?:s| queries| strength)\b": 1.5, r"\bdistinguishab": 3.0, r"\bhuman feedback\b": 1.5,
          r"\blabell?ers?\b": 1.0, r"\bBradley[- ]Terry\b": 2.0,
          # "forty queries of each type", "a sharp labeler (rationality 4)", "easiness weighted against information"
          r"\bquer(?:y|ies)\s+(?:of|per|for)\s+each\s+(?:query\s+)?type\b": 1.5, r"\brationality\b": 1.5,
          r"\beasiness\b": 1.5, r"\bheld[- ]out\s+segments\b|\bpools?\s+of\s+\d+\s+segments\b": 1.0,
          # "asking which of two segments is easier to tell apart", "than asking which is better"
          r"\beasier\s+to\s+(?:tell\s+apart|distinguish)\b": 2.5, r"\bwhich\s+(?:one\s+|of\s+(?:the\s+)?two\s+)?is\s+better\b": 1.0},
    data=no_data,
    arguments={
        # a list of free strings: 'tabular' (the gridworld) and the gymnasium ids the method knows
        "environments": {
            "tabular": [r"\bgrid[- ]?worlds?\b", r"\btabular\b"],
            "CartPole-v1": [r"\bcart[\s_-]*pole\b"],
            "Acrobot-v1": [r"\bacrobot\b"],
            "MountainCar-v0": [r"(?<!continuous )\bmountain[\s_-]*car\b(?![\s_-]*continuous)"],
            "MountainCarContinuous-v0": [r"\bmountain[\s_-]*car[\s_-]*continuous\b",
                                         r"\bcontinuous\s+mountain[\s_-]*car\b"],
            "Pendulum-v1": [r"\bpendulum\b"],
        },
        "n_queries": [r"\bbudget\s+of\s+(\d[\d,]*)\s+(?:queries|questions|comparisons)\b",
                      r"\b(\d[\d,]*)\s+(?:queries|questions)\s+(?:per|of\s+each|for\s+each)\s+(?:query\s+)?(?:type|kind)\b",
                      # "ask 60 of each type"
                      r"\b(?:ask|pose|use)\s+(\d[\d,]*)\s+(?:of\s+each|per)\s+(?:query\s+)?(?:type|kind)\b",
                      # "Both kinds of query get 80 questions each"
                      r"\b(?:both|each|every)\s+(?:kinds?|types?)\s+of\s+(?:query|queries|question)\s+(?:gets?|receives?|has)\s+"
                      r"(\d[\d,]*)\s+(?:queries|questions|comparisons)(?:\s+each)?\b"],
        # "rationality 1", "mistake rate 0.1", "slip 0.1", "grid size 7" are read by the arguments' own names
        "mistake_rate": [rf"\b({_RATE})\s+(?:chance|probability)\s+(?:of|that)\s+(?:the\s+labell?er\s+)?"
                         rf"(?:answer|respond|repl|pick|choos|guess)\w*\s+(?:uniformly\s+)?at\s+random\b",
                         rf"\banswers?\s+(?:uniformly\s+)?at\s+random\s+(?:with\s+probability|in|for)\s+({_RATE})"
                         rf"{_ALONE_AFTER}"],
        "rationality": [rf"\brationality\s*β\s*=\s*({_NUM})\b{_ALONE_AFTER}",
                        # "make the simulated labeller fairly irrational, β = 1"
                        rf"\blabell?er\b[^.;]{{0,50}}?\bβ\s*=\s*({_NUM})\b{_ALONE_AFTER}",
                        # "the labeler should be fairly rational (β = 4)"
                        rf"\brational\w*\s*\(\s*β\s*=\s*({_NUM})\s*\)"],
        "selection": {
            "random": [r"\b(?:pick|choose|select|draw|sample)\w*\s+(?:the\s+)?quer(?:y|ies)\s+(?:uniformly\s+)?at\s+random\b",
                       r"\bquer(?:y|ies)\s+(?:are\s+|were\s+)?(?:chosen|selected|picked|drawn|sampled)\s+"
                       r"(?:uniformly\s+)?at\s+random\b",
                       r"\brandom(?:ly\s+(?:chosen|selected))?\s+quer(?:y|ies)\b",
                       # "when every query is drawn at random instead of picked for information"
                       r"\bquer(?:y|ies)\s+(?:is|are)\s+(?:drawn|chosen|picked|selected|sampled)\s+(?:uniformly\s+)?at\s+random\b",
                       r"\brandom\s+(?:query\s+)?selection\b",
                       r"\bwithout\s+active\s+(?:query\s+)?selection\b",
                       # "60 queries each, chosen at random rather than actively"
                       r"\b(?:chosen|selected|picked|drawn|asked)\s+(?:uniformly\s+)?at\s+random\s+(?:rather\s+than|"
                       r"instead\s+of|not)\s+(?:actively|by\s+active)"],
            "active": [r"(?<!instead of )(?<!rather than )(?<!without )\bactive(?:ly)?\s+(?:query\s+)?"
                       r"(?:selection|selected|chosen|learning)\b",
                       r"\bquer(?:y|ies)\s+(?:are\s+|were\s+)?(?:chosen|selected)\s+actively\b",
                       r"(?<!instead of )(?<!rather than )(?<!without )\bactive\s+quer(?:y|ies)\b"],
        },
        "grid_size": [r"\b(\d+)\s*[×x]\s*\1\s+grid(?:[- ]?worlds?)?\b",
                      # "the tabular 5 × 5 world"
                      r"\btabular\s+(\d+)\s*(?:[×x]|by)\s*\1\s+(?:grid[- ]?)?worlds?\b",
                      # "the tabular gridworld (7 by 7 this time)", "gridworld only (6 × 6, ...)"
                      r"\bgrid[- ]?world\b[^.;()]{0,20}\(\s*(\d+)\s*(?:[×x]|by)\s*\d+\b",
                      # "only the tabular gridworld, 7 by 7, with ..."
                      r"\bgrid[- ]?world\s*,\s*(\d+)\s*(?:[×x]|by)\s*\d+\s*[,;.)]",
                      rf"\bgrid[- ]?world\s+(?:of\s+)?(?:size|side)\s*(?:of\s+|=\s*|:\s*)?(\d+)\b{_ALONE_AFTER}",
                      # "make the grid 4 by 4", "the grid is 6 × 6"
                      r"\bgrid(?:[- ]?world)?\s+(?:is\s+|of\s+)?(\d+)\s*(?:[×x]|by)\s*\d+\b"],
        "slip": [rf"\bslip(?:ping|page)?\s+(?:probability|rate|chance)\s*(?:of\s+|=\s*|:\s*)?({_RATE}){_ALONE_AFTER}",
                 # "moves slip in a random direction 20% of the time"
                 rf"\bslips?\b[^.;]{{0,40}}?\b({_RATE})\s+of\s+the\s+time\b",
                 rf"\b{_ALONE_BEFORE}({_RATE})\s+(?:chance|probability)\s+(?:of\s+)?(?:a\s+)?slip",
                 rf"\bmoves?\s+slips?\s+with\s+probability\s+({_RATE}){_ALONE_AFTER}",
                 # "an action goes astray (random direction) with probability 0.2"
                 rf"\b(?:actions?|moves?|steps?)\s+(?:goes|go|going|is\s+sent|are\s+sent|ends?\s+up|veers?|slips?)\s+"
                 rf"(?:astray|elsewhere|the\s+wrong\s+way|off\s+course|sideways)\b[^.;]{{0,40}}?\bwith\s+probability\s+"
                 rf"({_RATE}){_ALONE_AFTER}",
                 (r"\bdeterministic\s+(?:\d+\s*[×x]\s*\d+\s+)?grid[- ]?worlds?\b", 0.0),
                 (r"\bno\s+slip(?:ping|s|page)?\b", 0.0),
                 (r"\bwithout\s+slip(?:ping|s|page)?\b", 0.0)],
        "horizon": [r"\bsegments?\s+of\s+(\d+)\s+steps\b", rf"\b{_ALONE_BEFORE}(\d+)-step\s+segments?\b"],
        "pool_size": [r"\bpools?\s+of\s+(\d[\d,]*)\s+segments\b", r"\b(\d[\d,]*)\s+(?:candidate|pool)\s+segments\b"],
        "test_size": [r"\b(\d[\d,]*)\s+held[- ]out\s+segments\b"],
        # "two independent problems", "3 independent replicates"
        "n_seeds": [rf"\b{_COUNT}\s+independent\s+(?:problems|runs|repetitions|replicates|instances)\b"],
        "batch": [r"\brefit\w*\s+(?:the\s+reward\s+model\s+)?every\s+(\d+)\s+queries\b",
                  # "refit the linear reward model after every 8 answers"
                  r"\brefit\w*\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:reward\s+)?model\s+(?:after\s+)?every\s+(\d+)\s+"
                  r"(?:answers|queries|questions|comparisons|labels)\b",
                  # "60 queries of each kind asked 6 at a time"
                  r"\b(?:asked|posed|put|shown|sent)\s+(\d+|two|three|four|five|six|eight|ten|twelve)\s+at\s+a\s+time\b",
                  # "with the reward model refitted every 5"
                  r"\b(?:reward\s+model\s+)?refit(?:ted)?\s+every\s+(\d+)\b(?!\s*(?:%|steps|episodes|seconds|minutes))",
                  r"\brefit\w*\s+(?:the\s+reward\s+model\s+)?after\s+every\s+(\d+)\b(?!\s*(?:%|steps|episodes))",
                  # "with a refit after every five"
                  rf"\brefit\w*\s+(?:the\s+reward\s+model\s+)?after\s+every\s+({_WORD})\b(?!\s*(?:%|steps|episodes))",
                  r"\b(?:in\s+)?batch(?:es)?\s+of\s+(\d+)\s+queries\b"],
    },
)
