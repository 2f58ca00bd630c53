"""The desktop window: the task pane (the same files, the same HTTPS API on loopback) in a native
window through pywebview, beside its read-only sheet view with highlighted evidence.

pywebview and Qt are imported only when a window opens (``pip install 'gridsight[desktop]'``), so
this package imports everywhere.
"""

from gridsight.desktop._run import DesktopRequest, run_desktop
from gridsight.desktop._shot import png_facts
from gridsight.desktop._targets import Plan, plan_targets

__all__ = ["DesktopRequest", "Plan", "plan_targets", "png_facts", "run_desktop"]
