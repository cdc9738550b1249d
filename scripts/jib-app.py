#!/usr/bin/env python3
"""Unpacks /app of a Jib image tarball (jib:buildTar) into DIR, keeping Jib's file times, and prints the image's
main class and classpath with /app rewritten to DIR/app: what an AOT training run needs to load exactly the jars
the container will load (the JVM checks each jar's size and time; the folder may move)."""
import json
import os
import sys
import tarfile


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


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
