"""Audits that read the cell a step ran: a model scored on the data it was fitted on, and a specification
search that reports the best of many analysis variants.

Both read the cell's syntax tree (never run it).  ``analysis.specification_search`` also applies the X-hacking
detection (:func:`cmbagent.tools.methods.robustness.rashomon_spread`) to the variants when the step printed
them: a result that moves by more than half its size across equally defensible variants depends on the choice.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from cmbagent.audits._evidence import StepEvidence
from cmbagent.audits._registry import finding, step_audit
from cmbagent.state import Finding

__all__ = ["fitted_and_scored_on_same_data", "variant_search"]


_PREDICT = {"predict", "predict_proba", "decision_function", "score_samples", "predict_log_proba"}
_METRICS = {"roc_auc_score", "accuracy_score", "average_precision_score", "f1_score", "r2_score", "precision_score",
            "recall_score", "log_loss", "mean_squared_error", "mean_absolute_error", "balanced_accuracy_score",
            "matthews_corrcoef", "auc", "brier_score_loss"}
_TESTS = {"fit", "ols", "OLS", "logit", "Logit", "glm", "GLM", "ttest_ind", "ttest_rel", "ttest_1samp", "pearsonr",
          "spearmanr", "kendalltau", "linregress", "mannwhitneyu", "wilcoxon", "chi2_contingency", "fisher_exact",
          "f_oneway", "curve_fit", "polyfit", "lstsq", "dml_ate", "run_method", "cross_val_score"}
_SELECT = {"min", "max", "sorted", "argmin", "argmax", "nanargmin", "nanargmax", "idxmin", "idxmax", "nsmallest",
           "nlargest", "sort_values"}
_VARIANT_ITERS = {"combinations", "product", "permutations", "powerset", "chain", "ParameterGrid"}
_VARIANT_KEYS = ("variants", "specifications", "specs", "models", "pipelines", "candidates", "results")
_QUANTITY_KEYS = ("estimate", "effect", "coef", "coefficient", "slope", "ate", "p_value", "pvalue", "p", "auc",
                  "score", "share", "r2")


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _tree(code: str | ast.Module) -> ast.Module | None:
    if isinstance(code, ast.Module):
        return code
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def fitted_and_scored_on_same_data(code: str | ast.Module) -> list[tuple[int, str, str]]:
    """``(line, model, data)`` where a model fitted with labels on ``data`` is scored on that same ``data``."""
    tree = _tree(code)
    if tree is None:
        return []
    nodes = list(ast.walk(tree))
    targets = {id(n.value): ast.unparse(n.targets[0]) for n in nodes
               if isinstance(n, ast.Assign) and len(n.targets) == 1}
    fitted: dict[str, str] = {}  # model source -> the data source it was fitted on
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fit" \
                and len(node.args) >= 2:
            data = ast.unparse(node.args[0])
            fitted[ast.unparse(node.func.value)] = data
            if id(node) in targets:
                fitted[targets[id(node)]] = data
    if not fitted:
        return []
    on_train: dict[str, str] = {}  # variable -> model, for predictions made on the training data
    hits: list[tuple[int, str, str]] = []

    def training_prediction(node: ast.AST) -> tuple[str, str] | None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            model = ast.unparse(node.func.value)
            if node.func.attr in _PREDICT and fitted.get(model) == ast.unparse(node.args[0]):
                return model, ast.unparse(node.args[0])
        if isinstance(node, ast.Subscript):
            return training_prediction(node.value)
        return None

    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found = training_prediction(node.value)
            if found:
                on_train[node.targets[0].id] = found[0]
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        func = _name(node.func)
        if func == "score" and isinstance(node.func, ast.Attribute) and node.args:
            model = ast.unparse(node.func.value)
            if fitted.get(model) == ast.unparse(node.args[0]):
                hits.append((node.lineno, model, fitted[model]))
        elif func in _METRICS:
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                found = training_prediction(arg)
                if found:
                    hits.append((node.lineno, *found))
                elif isinstance(arg, ast.Name) and arg.id in on_train:
                    hits.append((node.lineno, on_train[arg.id], fitted[on_train[arg.id]]))
    return hits


@step_audit("eval.leakage")
def scored_on_training_data(ev: StepEvidence) -> Iterator[Finding]:
    tree = ev.syntax()
    if ev.method is not None or tree is None:
        return  # method cells are rendered by code; their protocols are the methods' own
    for line, model, data in fitted_and_scored_on_same_data(tree)[:1]:
        yield finding("eval.leakage", f"line {line} of the cell scores {model}, which was fitted on {data}, on that "
                                      f"same {data}: the score measures memorisation, not generalisation",
                      line=line, model=model, data=data)


def variant_search(code: str | ast.Module) -> dict[str, Any] | None:
    """A loop that fits or tests over variants followed by picking an extreme, or None."""
    tree = _tree(code)
    if tree is None:
        return None
    loops = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.ListComp, ast.DictComp, ast.GeneratorExp))]
    searching: dict[str, Any] | None = None
    for loop in loops:
        calls = {_name(c.func) for c in ast.walk(loop) if isinstance(c, ast.Call)}
        if not calls & _TESTS:
            continue
        iters = [loop.iter] if isinstance(loop, ast.For) else [g.iter for g in loop.generators]
        size = None
        for it in iters:
            if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
                size = len(it.elts)
            elif isinstance(it, ast.Call) and _name(it.func) == "range" and it.args and \
                    isinstance(it.args[-1], ast.Constant) and isinstance(it.args[-1].value, int):
                size = it.args[-1].value
            elif any(isinstance(c, ast.Call) and _name(c.func) in _VARIANT_ITERS for c in ast.walk(it)):
                size = size or 0  # combinatorial: unknown, but many
        if size is not None and (size == 0 or size >= 3):
            searching = {"line": loop.lineno, "variants": size or "many", "tests": sorted(calls & _TESTS)}
            break
    if searching is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in _SELECT and node.lineno >= int(searching["line"]):
            return {**searching, "selection": _name(node.func), "selection_line": node.lineno}
        if isinstance(node, ast.Name) and "best" in node.id.lower() and isinstance(node.ctx, ast.Store):
            return {**searching, "selection": node.id, "selection_line": node.lineno}
    return None


def _printed_variants(values: dict[str, Any]) -> tuple[str, list[dict[str, Any]]] | None:
    for key in _VARIANT_KEYS:
        items = values.get(key)
        if isinstance(items, list) and len(items) >= 3 and all(isinstance(i, dict) for i in items):
            return key, items
        if isinstance(items, dict) and len(items) >= 3 and all(isinstance(i, dict) for i in items.values()):
            return key, list(items.values())
    return None


@step_audit("analysis.specification_search")
def specification_search(ev: StepEvidence) -> Iterator[Finding]:
    if ev.method is not None and ev.method.startswith("robustness."):
        return  # the robustness methods search on purpose and report the whole search
    printed = _printed_variants(ev.values)
    if printed is not None:
        key, variants = printed
        quantity = next((q for q in _QUANTITY_KEYS if all(isinstance(v.get(q), (int, float)) for v in variants)), None)
        if quantity is None:
            return
        from cmbagent.tools.methods.robustness import rashomon_spread

        numbers = [float(v[quantity]) for v in variants]
        score_key = next((s for s in ("score", "auc", "r2", "aic_score") if s != quantity and
                          all(isinstance(v.get(s), (int, float)) for v in variants)), None)
        spread = rashomon_spread(numbers, [float(v[score_key]) for v in variants] if score_key else None)
        reported = ev.values.get(quantity)
        if isinstance(reported, dict):
            reported = reported.get("mean", reported.get("value"))
        extreme = isinstance(reported, (int, float)) and reported in (min(numbers), max(numbers))
        if spread["flag"] or (quantity.startswith("p") and extreme and min(numbers) < 0.05 < sorted(numbers)[len(numbers) // 2]):
            yield finding("analysis.specification_search",
                          f"the step tried {len(variants)} variants ({key}); its {quantity} ranges "
                          f"{spread['min']:.4g} to {spread['max']:.4g} across the defensible ones"
                          + (f" and the reported {quantity} = {reported:.4g} is the extreme" if extreme else "")
                          + ": the result depends on which variant is chosen",
                          variants=len(variants), quantity=quantity, spread=spread)
        return
    tree = ev.syntax()
    if ev.method is not None or tree is None:
        return
    search = variant_search(tree)
    if search is not None:
        yield finding("analysis.specification_search",
                      f"the cell loops over {search['variants']} analysis variants (line {search['line']}, "
                      f"{', '.join(search['tests'])}) and keeps one by {search['selection']} (line "
                      f"{search['selection_line']}) without reporting the others: the reported result is the best "
                      "of a search", **search)
