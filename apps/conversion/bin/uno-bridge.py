#!/usr/bin/python3
"""Converts documents with a running LibreOffice (soffice --accept=pipe,name=...;urp;).

Started by the conversion worker (apps/conversion/src/engines/libreoffice.ts) inside the engine's
sandbox (bubblewrap: no network, a private /tmp) with the pipe name and then the soffice command line
as its arguments: it starts that soffice itself, so both share the sandbox and its /tmp, where
LibreOffice keeps the pipe's socket (/tmp/OSL_PIPE_<uid>_<name>). It reads one JSON request per line
on stdin and answers one JSON line on stdout:
  {"id": 1, "src": "/tmp/in.docx", "dst": "/tmp/out.pdf", "filter": "writer_pdf_Export",
   "filterOptions": "", "importFilter": ""}  ->  {"id": 1, "ok": true} or {"id": 1, "error": "..."}
It needs Debian's python3-uno (the UNO bridge of LibreOffice) and runs under /usr/bin/python3.
"""
import json
import subprocess
import sys
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.task import XInteractionHandler
import unohelper


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


class Refuse(unohelper.Base, XInteractionHandler):
    """Answers every question LibreOffice asks (a password, a repair) with 'abort', so nothing waits."""

    def __init__(self):
        self.asked_password = False

    def handle(self, request):
        text = str(request.getRequest())
        if "Password" in text or "password" in text:
            self.asked_password = True
        for continuation in request.getContinuations():
            if "Abort" in str(continuation) or "XInteractionAbort" in str(type(continuation)):
                continuation.select()
                return
        if request.getContinuations():
            request.getContinuations()[0].select()


def connect(pipe):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.time() + 30
    while True:
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.1)


def convert(desktop, req):
    handler = Refuse()
    load = [prop("Hidden", True), prop("ReadOnly", True), prop("InteractionHandler", handler), prop("MacroExecutionMode", 0)]
    if req.get("importFilter"):
        load.append(prop("FilterName", req["importFilter"]))
    if req.get("importOptions"):
        load.append(prop("FilterOptions", req["importOptions"]))
    try:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(req["src"]), "_blank", 0, tuple(load))
    except Exception as error:  # IllegalArgumentException, IOException
        doc = None
        if not handler.asked_password:
            return {"error": "unreadable", "detail": str(error).splitlines()[0] if str(error) else type(error).__name__}
    if doc is None:
        return {"error": "password" if handler.asked_password else "unreadable", "detail": ""}
    try:
        store = [prop("FilterName", req["filter"]), prop("Overwrite", True)]
        if req.get("filterOptions"):
            store.append(prop("FilterOptions", req["filterOptions"]))
        if req.get("filterData"):
            data = uno.Any("[]com.sun.star.beans.PropertyValue", tuple(prop(k, v) for k, v in req["filterData"].items()))
            store.append(prop("FilterData", data))
        doc.storeToURL(uno.systemPathToFileUrl(req["dst"]), tuple(store))
        return {"ok": True}
    except Exception as error:
        return {"error": "export", "detail": str(error).splitlines()[0] if str(error) else type(error).__name__}
    finally:
        try:
            doc.close(True)
        except Exception:
            pass


def main():
    if len(sys.argv) > 2:
        # soffice, started here so it shares the sandbox; it goes when the sandbox goes.
        subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    desktop = connect(sys.argv[1])
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        try:
            answer = convert(desktop, req)
        except Exception as error:  # the bridge itself failed: LibreOffice died or hangs
            answer = {"error": "bridge", "detail": str(error).splitlines()[0] if str(error) else type(error).__name__}
        answer["id"] = req.get("id")
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
