#!/usr/bin/env python3
"""Write stand-ins for the two datagen dictionaries that the public repository keeps in
git LFS and that could not be obtained here:

  src/main/resources/dictionaries/tagMatrix.txt  lines "tagId relatedTagId cumulativeProb"
  src/main/resources/dictionaries/tagText.txt    lines "tagId<two spaces>text"

Both are derived deterministically from tags.txt (which *is* in the repository), so every run
writes byte-identical files.

tagMatrix stand-in: every tag is related to itself and to the next RELATED-1 tags of its own
tag class (by tag id, cyclically), padded with the following tag ids when the class is small;
probabilities follow a Zipf law (1/rank), so the tag itself is the most likely related tag, as
in the real matrix. Every row has >= maxNumTagsPerUser (80) distinct tags, which
TagMatrix.getSetofTags needs to terminate.

tagText stand-in: "<Tag Name> is a placeholder text for tag <id> of the stand-in dictionary."
repeated REPEAT times (the same sentence shape as the stand-in used for our SF0.1 set).

usage: make_standins.py DICTIONARY_DIR
"""
import sys, os

RELATED = 90
REPEAT = 20


def main():
    d = sys.argv[1]
    tags = []  # (id, classId, name)
    with open(os.path.join(d, "tags.txt"), encoding="utf-8") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            tags.append((int(p[0]), int(p[1]), p[2]))
    tags.sort()
    ids = [t[0] for t in tags]
    n = len(ids)
    assert ids == list(range(n)), "tags.txt ids are expected to be 0..N-1"
    by_class = {}
    for tid, cls, _ in tags:
        by_class.setdefault(cls, []).append(tid)

    weights = [1.0 / (r + 1) for r in range(RELATED)]
    total = sum(weights)
    cum, acc = [], 0.0
    for w in weights:
        acc += w
        cum.append(acc / total)
    cum[-1] = 1.0

    with open(os.path.join(d, "tagMatrix.txt"), "w", encoding="utf-8", newline="\n") as out:
        for tid, cls, _ in tags:
            members = by_class[cls]
            pos = members.index(tid)
            rel = [tid]
            seen = {tid}
            for k in range(1, len(members)):
                if len(rel) == RELATED:
                    break
                m = members[(pos + k) % len(members)]
                rel.append(m)
                seen.add(m)
            k = 1
            while len(rel) < RELATED:
                m = (tid + k) % n
                k += 1
                if m not in seen:
                    rel.append(m)
                    seen.add(m)
            for r, m in enumerate(rel):
                out.write("%d %d %r\n" % (tid, m, cum[r]))

    with open(os.path.join(d, "tagText.txt"), "w", encoding="utf-8", newline="\n") as out:
        for tid, _, name in tags:
            sentence = "%s is a placeholder text for tag %d of the stand-in dictionary." % (
                name.replace("_", " "), tid)
            out.write("%d  %s\n" % (tid, " ".join([sentence] * REPEAT)))


if __name__ == "__main__":
    main()
