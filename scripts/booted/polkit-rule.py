#!/usr/bin/python3
"""Writes the polkit rule the booted check needs, from the fprint policy installed now.

    polkit-rule.py POLICY-FILE USER...  > /etc/polkit-1/rules.d/49-booted-check.rules

A session on a pseudo-terminal has no seat, and polkit counts only seated sessions as active
and local, so `allow_active` is never granted in the container. For the named users the rule
answers each net.reactivated.fprint.* action as polkit would for an active local session: with
that action's `allow_active` default from the installed policy file (so the check still tests
the installed defaults, the owner annotation and the agent)."""
import json
import sys
import xml.etree.ElementTree as ET

policy, users = sys.argv[1], sys.argv[2:]
active = {}
for action in ET.parse(policy).getroot().iter("action"):
    ident = action.get("id")
    value = action.findtext("defaults/allow_active")
    if ident.startswith("net.reactivated.fprint.") and value:
        active[ident] = value.strip()
print(f"""// Written by scripts/booted/polkit-rule.py from {policy} (see there why).
polkit.addRule(function(action, subject) {{
    var activeDefaults = {json.dumps(active)};
    var users = {json.dumps(users)};
    if (users.indexOf(subject.user) >= 0 && !subject.active && activeDefaults.hasOwnProperty(action.id)) {{
        return activeDefaults[action.id];
    }}
}});""")
