package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A generated six-column payments CSV for the kill tests ({@code event_id,event_time,card,merchant,country,amount,channel}):
 * 300 cards, 30 merchants (some RFC 4180 quoted, with commas and quotes in the name), 4 countries, amounts
 * with two decimals, event times advancing by 1 ms every 2 events, up to 400 ms out of order, 1 event in 200
 * 3 to 5 s late; and about 1 line in 1,000 bad (a decimal of scale 3, a missing field, an empty card, a
 * merchant over 256 bytes, an unterminated quote), each to be rejected once. Immutable.
 *
 * @param events   the valid events written.
 * @param badLines the line numbers of the bad lines (the header is line 1).
 */
record PaymentsCsv(long events, List<Long> badLines)
{
    /** The {@code --columns} of the CSV. */
    static final String COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2),channel:string";

    private static final String HEADER = "event_id,event_time,card,merchant,country,amount,channel";
    private static final String[] COUNTRIES = {"FR", "DE", "IT", "CH"};
    private static final String[] CHANNELS = {"pos", "online", "app"};

    /**
     * @param file   the CSV.
     * @param events valid events.
     * @param seed   the stream's seed.
     * @return what was written.
     * @throws IOException if it cannot be written.
     */
    static PaymentsCsv write(final Path file, final int events, final long seed) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Long> bad = new ArrayList<>();
        long line = 1;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write(HEADER);
            out.write('\n');
            for (int i = 0; i < events; i++)
            {
                final long lateBy = random.nextInt(200) == 0 ? 3_000 + random.nextInt(2_000) : random.nextInt(400);
                final long time = Math.max(0, 100_000L + i / 2 - lateBy);
                final String card = "card-" + random.nextInt(300);
                final String merchant = merchant(random.nextInt(30));
                final String country = COUNTRIES[random.nextInt(COUNTRIES.length)];
                final String amount = BigDecimal.valueOf(random.nextLong(-5_000, 50_000), 2).toPlainString();
                final String channel = CHANNELS[random.nextInt(CHANNELS.length)];
                if (random.nextInt(1_000) == 0)
                {
                    out.write(badLine(i, time, card, merchant, country, channel, bad.size()));
                    out.write('\n');
                    bad.add(++line);
                }
                out.write(i + "," + time + "," + card + "," + merchant + "," + country + "," + amount + "," + channel + "\n");
                line++;
            }
        }
        return new PaymentsCsv(events, List.copyOf(bad));
    }

    /**
     * Assert a rejected-lines file ({@code line,reason,content}) holds each bad line once, and nothing else.
     *
     * @param rejected the file.
     * @throws IOException if it cannot be read.
     */
    void assertRejectedOnce(final Path rejected) throws IOException
    {
        final List<String> lines = Files.readAllLines(rejected, StandardCharsets.UTF_8);
        assertEquals("line,reason,content", lines.get(0), "the rejected file's header");
        final TreeMap<Long, Integer> seen = new TreeMap<>();
        for (final String row : lines.subList(1, lines.size()))
        {
            seen.merge(Long.parseLong(row.substring(0, row.indexOf(','))), 1, Integer::sum);
        }
        final TreeMap<Long, Integer> once = new TreeMap<>();
        badLines.forEach(l -> once.put(l, 1));
        assertEquals(once, seen, "each bad line rejected once, by line number");
    }

    private static String merchant(final int m)
    {
        return switch (m % 10)
        {
            case 3 -> "\"Shop " + m + ", Inc.\"";
            case 7 -> "\"Caf\u00e9 \"\"Le Bon " + m + "\"\", Paris\"";
            default -> "merchant-" + m;
        };
    }

    private static String badLine(final int i, final long time, final String card, final String merchant, final String country,
        final String channel, final int kind)
    {
        final String id = Long.toString(1_000_000L + i);
        return switch (kind % 5)
        {
            case 0 -> id + "," + time + "," + card + "," + merchant + "," + country + ",1.234," + channel;
            case 1 -> id + "," + time + "," + card + "," + merchant + "," + country + ",1.00";
            case 2 -> id + "," + time + ",," + merchant + "," + country + ",1.00," + channel;
            case 3 -> id + "," + time + "," + card + "," + "m".repeat(257) + "," + country + ",1.00," + channel;
            default -> id + "," + time + "," + card + ",\"Shop, " + country + ",1.00," + channel;
        };
    }
}
