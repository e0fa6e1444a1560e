#!/usr/bin/env python3
"""Write the CSVs of the `weir ingest` figure (issue 18): ingest-csv.py default|payments LINES FILE.

default:  event_id,event_time,key,value; 10,000 keys, event time spread over 400 s, values 0..999.
payments: event_id,event_time,card,merchant,country,amount,channel (the --columns of
          benchmarks/ingest-figure.sh); 300 cards, 30 merchants (3 of them RFC 4180 quoted), 4 countries.
Seeded: the same arguments always write the same file.
"""
import random
import sys

kind, lines, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rnd = random.Random(18)
with open(path, "w", newline="\n") as out:
    if kind == "default":
        out.write("event_id,event_time,key,value\n")
        keys = ["key-%d" % k for k in range(10_000)]
        step = 400_000 / lines
        buf = []
        for i in range(lines):
            buf.append("%d,%d,%s,%d\n" % (i, int(1_700_000_000_000 + i * step), keys[rnd.randrange(10_000)], rnd.randrange(1000)))
            if len(buf) == 65536:
                out.write("".join(buf))
                buf = []
        out.write("".join(buf))
    else:
        out.write("event_id,event_time,card,merchant,country,amount,channel\n")
        merchants = ["merchant-%d" % m for m in range(30)]
        merchants[3] = '"Cafe, Bar"'
        merchants[7] = '"The ""Big"" Shop"'
        merchants[11] = '"Müller & Söhne"'
        countries = ["FR", "DE", "IT", "CH"]
        channels = ["pos", "online", "app"]
        buf = []
        for i in range(lines):
            cents = rnd.randrange(-5000, 50000)
            sign = "-" if cents < 0 else ""
            buf.append("%d,%d,card-%d,%s,%s,%s%d.%02d,%s\n" % (i, 100_000 + i // 2, rnd.randrange(300), merchants[rnd.randrange(30)],
                countries[rnd.randrange(4)], sign, abs(cents) // 100, abs(cents) % 100, channels[rnd.randrange(3)]))
            if len(buf) == 65536:
                out.write("".join(buf))
                buf = []
        out.write("".join(buf))
