package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir run --where EXPR --value EXPR}: the query, "spend per card of online payments in FR or
 * DE, net of fees, sliding 60 s / 10 s", as one run over a payments journal, against sums computed here from
 * the CSV; {@code weir inspect} and {@code weir stat} show the filter, the value and the filtered count; a
 * filter or value that does not compile is refused (exit 2) with its position, before anything is ingested.
 */
class WhereAndValueTest
{
    private static final String COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2),fee:decimal(2),channel:string";
    private static final String[] COUNTRIES = {"FR", "DE", "IT", "CH"};
    private static final String[] CHANNELS = {"pos", "online", "app"};
    private static final int EVENTS = 6_000;

    @TempDir
    Path dir;

    @Test
    void spendPerCardOfOnlinePaymentsInFrOrDeNetOfFeesEqualsAnIndependentComputation() throws IOException
    {
        final Path input = dir.resolve("payments.csv");
        final Map<String, long[]> expected = writePayments(input);
        final Path journal = dir.resolve("journal");
        final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--columns", COLUMNS);
        assertEquals(0, ingest.exit(), ingest.err());

        final Path results = dir.resolve("online-net.csv");
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--pipeline", "online-net", "--key", "card",
            "--value", "amount - fee", "--where", "channel = 'online' and country in ('FR', 'DE')",
            "--window", "sliding:60s/10s", "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        final long kept = expectedKept(input);
        assertTrue(run.out().contains(String.format("\nevents          %,d\n", kept)), run.out());
        assertTrue(run.out().contains(String.format("\nfiltered        %,d by --where (since the journal's first event)\n", EVENTS - kept)), run.out());

        final List<String> rows = Files.readAllLines(results);
        assertEquals("window_start,window_end,card,count,sum,min,max,version", rows.get(0));
        final Map<String, String> actual = new TreeMap<>();
        for (final String row : rows.subList(1, rows.size()))
        {
            final String[] f = row.split(",");
            assertEquals("0", f[7], "one firing per window: no event is late");
            actual.put(f[0] + "," + f[2], f[3] + "," + f[4] + "," + f[5] + "," + f[6]);
        }
        final Map<String, String> wanted = new TreeMap<>();
        expected.forEach((window, a) -> wanted.put(window, a[0] + "," + money(a[1]) + "," + money(a[2]) + "," + money(a[3])));
        assertFalse(wanted.isEmpty());
        assertEquals(wanted, actual);

        final Cli inspect = Cli.run("inspect", journal.toString(), "--pipeline", "online-net");
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("value=amount - fee"), inspect.out());
        assertTrue(inspect.out().contains("where=channel = 'online' and country in ('FR', 'DE')"), inspect.out());
        assertTrue(inspect.out().contains(String.format("filtered     %,d events filtered out", EVENTS - kept)), inspect.out());

        final Cli stat = Cli.run("stat", journal.toString(), "--pipeline", "online-net", "--once");
        assertEquals(0, stat.exit(), stat.err());
        assertTrue(stat.out().contains(String.format("%,d", EVENTS - kept)) && stat.out().contains("events filtered out"), stat.out());
    }

    @Test
    void aFilterOrValueThatDoesNotCompileIsRefusedWithItsPositionBeforeAnythingIsIngested() throws IOException
    {
        final Path input = dir.resolve("payments.csv");
        writePayments(input);
        final Path journal = dir.resolve("journal");
        final Cli where = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--columns", COLUMNS,
            "--key", "card", "--value", "amount", "--where", "chanel = 'online'", "--window", "tumbling:10s", "--results", dir.resolve("r.csv").toString());
        assertEquals(2, where.exit(), where.err());
        assertTrue(where.err().contains("--where: expression 'chanel = 'online'' at position 1: unknown column 'chanel'"), where.err());
        assertEquals(1, where.err().strip().lines().count(), "one line: " + where.err());
        assertFalse(Files.exists(journal), "nothing ingested");

        final Cli value = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--columns", COLUMNS,
            "--key", "card", "--value", "amount - fees", "--window", "tumbling:10s", "--results", dir.resolve("r.csv").toString());
        assertEquals(2, value.exit(), value.err());
        assertTrue(value.err().contains("--value: expression 'amount - fees' at position 10: unknown column 'fees'"), value.err());
        assertFalse(Files.exists(journal), "nothing ingested");
    }

    /**
     * A {@code --value} that wraps past the 64-bit range on some events, and a window sum that wraps: the rows keep
     * the wrapped values (as Java, Flink and Kafka Streams arithmetic does), and the run summary, {@code weir stat}
     * and {@code weir inspect} count them; a constant part out of range is refused before anything is ingested.
     */
    @Test
    void wrappedValuesAndSumsAreKeptAndCountedInTheRunSummaryStatAndInspect() throws IOException
    {
        final Path input = dir.resolve("big.csv");
        Files.writeString(input, "event_id,event_time,card,amount\n"
            + "1,0,a,12.34\n"
            + "2,1000,w1,99999999.99\n" // 9,999,999,999 cents * 10^12 wraps
            + "3,2000,b,92233.72\n" // 9,223,372 * 10^12 fits
            + "4,3000,w2,92233.73\n" // wraps
            + "5,4000,w3,-92233.73\n" // wraps below the least long
            + "6,5000,d,50000.00\n" // fits, and so does the next, but their sum does not
            + "7,6000,d,50000.00\n");
        final Path journal = dir.resolve("big");
        final Path results = dir.resolve("big-results.csv");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--columns", "card:string,amount:decimal(2)",
            "--key", "card", "--value", "amount * 1000000000000", "--window", "tumbling:10s", "--results", results.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("\nvalues wrapped  3 by --value, 1 in window sums (past the 64-bit range, kept as wrapped)\n"), run.out());

        final Map<String, String> sums = new TreeMap<>();
        final List<String> rows = Files.readAllLines(results);
        for (final String row : rows.subList(1, rows.size()))
        {
            sums.put(row.split(",")[2], row.split(",")[4]);
        }
        assertEquals(List.of("a", "b", "d", "w1", "w2", "w3"), List.copyOf(sums.keySet()), "one window per card");
        final BigInteger scale = BigInteger.TEN.pow(12);
        assertEquals(money(BigInteger.valueOf(9_999_999_999L).multiply(scale).longValue()), sums.get("w1"), "the wrapped value is kept");
        assertEquals(money(BigInteger.valueOf(-9_223_373L).multiply(scale).longValue()), sums.get("w3"), "the wrapped value is kept");
        assertEquals(money(BigInteger.valueOf(5_000_000L).multiply(scale).shiftLeft(1).longValue()), sums.get("d"), "the wrapped sum is kept");
        assertEquals("92233720000000000.00", sums.get("b"), "9,223,372 cents * 10^12 fits");

        final Cli stat = Cli.run("stat", journal.toString(), "--once");
        assertEquals(0, stat.exit(), stat.err());
        assertTrue(stat.out().lines().anyMatch(l -> l.matches(" +3 +values wrapped \\(--value arithmetic past the 64-bit range\\)")), stat.out());
        assertTrue(stat.out().lines().anyMatch(l -> l.matches(" +1 +sums wrapped \\(a window's sum past the 64-bit range\\)")), stat.out());
        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("wrapped      3 by --value, 1 in window sums"), inspect.out());

        final Path never = dir.resolve("never");
        final Cli constant = Cli.run("run", "--input", input.toString(), "--journal", never.toString(), "--columns", "card:string,amount:decimal(2)",
            "--key", "card", "--value", "amount * (9223372036854775807 + 1)", "--window", "tumbling:10s", "--results", dir.resolve("r.csv").toString());
        assertEquals(2, constant.exit(), constant.err());
        assertTrue(constant.err().contains("--value: expression 'amount * (9223372036854775807 + 1)' at position 11: '9223372036854775807 + 1' is out of range"),
            constant.err());
        assertEquals(1, constant.err().strip().lines().count(), "one line: " + constant.err());
        assertFalse(Files.exists(never), "nothing ingested");
    }

    private static String money(final long cents)
    {
        return BigDecimal.valueOf(cents, 2).toPlainString();
    }

    /** Write the CSV; return, per "window start,card" of the query, count, sum, min and max of amount - fee in cents. */
    private static Map<String, long[]> writePayments(final Path file) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(16);
        final Map<String, long[]> windows = new TreeMap<>();
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write("event_id,event_time,card,merchant,country,amount,fee,channel\n");
            for (int i = 0; i < EVENTS; i++)
            {
                final long time = 1_000_000L + i * 37L; // in order: no event is late, so every window fires once
                final String card = "card-" + random.nextInt(25);
                final String country = COUNTRIES[random.nextInt(COUNTRIES.length)];
                final String channel = CHANNELS[random.nextInt(CHANNELS.length)];
                final long amount = random.nextLong(-2_000, 90_000);
                final long fee = random.nextLong(0, 300);
                out.write(i + "," + time + "," + card + ",m" + random.nextInt(9) + "," + country + "," + money(amount) + "," + money(fee)
                    + "," + channel + "\n");
                if (channel.equals("online") && (country.equals("FR") || country.equals("DE")))
                {
                    final long net = amount - fee;
                    for (long start = time - time % 10_000; start > time - 60_000; start -= 10_000)
                    {
                        final long[] a = windows.computeIfAbsent(start + "," + card, k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                        a[0]++;
                        a[1] += net;
                        a[2] = Math.min(a[2], net);
                        a[3] = Math.max(a[3], net);
                    }
                }
            }
        }
        return windows;
    }

    private static long expectedKept(final Path file) throws IOException
    {
        final List<String> lines = new ArrayList<>(Files.readAllLines(file));
        return lines.subList(1, lines.size()).stream().map(l -> l.split(","))
            .filter(f -> f[7].equals("online") && (f[4].equals("FR") || f[4].equals("DE"))).count();
    }
}
