#!/usr/bin/env python3
"""Unpacks /app of a Jib image tarball (jib:buildTar) into DIR, keeping Jib's file times, and prints the image's
main class and classpath with /app rewritten to DIR/app: what an AOT training run needs to load exactly the jars
the container will load (the JVM checks each jar's size and time; the folder may move). A third line is a digest
of what the JVM loads from /app: each jar's size and entries (name, CRC-32, size: the same classes give the same digest
whenever their jar was built) and every other file's bytes, so a cache trained on them can be kept by content.
`jib-app.py --digest DIR` prints that digest of any application folder (scripts/stack/stack.sh: an extracted boot jar)."""
import hashlib
import json
import os
import sys
import tarfile
import zipfile


def main(image_tar, out):
    with tarfile.open(image_tar) as image:
        manifest = json.load(image.extractfile("manifest.json"))[0]
        for layer in manifest["Layers"]:
            with tarfile.open(fileobj=image.extractfile(layer)) as files:
                members = [m for m in files.getmembers() if m.name.lstrip("./").startswith("app/")]
                for m in members:
                    m.name = m.name.lstrip("./")
                files.extractall(out, members=members, filter="tar")
    app = os.path.join(out, "app")
    with open(os.path.join(app, "jib-main-class-file")) as f:
        main_class = f.read().strip()
    with open(os.path.join(app, "jib-classpath-file")) as f:
        classpath = f.read().strip().replace("/app/", app + "/")
    print(main_class)
    print(classpath)
    print(digest(app))


def digest(app):
    h = hashlib.sha256()
    for root, dirs, files in os.walk(app):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            h.update(os.path.relpath(path, app).encode() + b"\0")
            if name.endswith(".jar"):  # and its size, which the JVM checks
                h.update(b"%d\0" % os.path.getsize(path))
                with zipfile.ZipFile(path) as jar:
                    for e in sorted(jar.infolist(), key=lambda e: e.filename):
                        h.update(b"%s\0%08x\0%d\0" % (e.filename.encode(), e.CRC, e.file_size))
            else:
                with open(path, "rb") as f:
                    h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


if __name__ == "__main__":
    if sys.argv[1] == "--digest":
        print(digest(sys.argv[2]))
    else:
        main(sys.argv[1], sys.argv[2])
