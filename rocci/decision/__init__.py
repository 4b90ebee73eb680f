"""Decision curves: net benefit at threshold probabilities with exact bootstrap laws (issue 31)."""

from .net_benefit import DEFAULT_THRESHOLDS, NB_BOOTSTRAPS, NB_METHODS, NetBenefit, net_benefit

__all__ = ["net_benefit", "NetBenefit", "DEFAULT_THRESHOLDS", "NB_BOOTSTRAPS", "NB_METHODS"]
