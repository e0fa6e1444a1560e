package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
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
 * One-minute candles of a seeded trades CSV through the command line ({@code weir ingest}, then {@code weir run
 * --aggregates} and {@code weir replay}), against a plain computation from the CSV written here: open and close
 * the price of the trade with the least and greatest event time (ties: the earlier and later line of the
 * file), high, low, volume, vwap at scale 6 rounded half-even, and the number of trades. The trades arrive out of
 * order (by less than the out-of-orderness, so none is late) and many share an event time.
 */
class CandlesTest
{
    private static final String COLUMNS = "instrument:string,price:decimal(2),qty:long";
    private static final String CANDLES =
        "open=first(price),high=max(price),low=min(price),close=last(price),volume=sum(qty),vwap=sum(price*qty)/sum(qty),trades=count()";
    private static final long MINUTE = 60_000;
    private static final long DISORDER = 20_000;

    @TempDir
    Path dir;

    @Test
    void candlesOfOutOfOrderTradesWithTiesAreThoseComputedFromTheFile() throws IOException
    {
        final Map<String, Candle> expected = new TreeMap<>();
        final Path trades = trades(new SplittableRandom(33), expected);
        final Path journal = dir.resolve("journal");
        final Cli ingest = Cli.run("ingest", "--input", trades.toString(), "--journal", journal.toString(), "--columns", COLUMNS);
        assertEquals(0, ingest.exit(), ingest.err());

        final Path results = dir.resolve("results.csv");
        final Cli run = Cli.run("run", "--journal", journal.toString(), "--key", "instrument", "--window", "tumbling:1m",
            "--out-of-orderness", "30s", "--aggregates", CANDLES, "--results", results.toString());
        assertEquals(0, run.exit(), run.err());

        final List<String> rows = Files.readAllLines(results);
        assertEquals("window_start,window_end,instrument,open,high,low,close,volume,vwap,trades,version", rows.get(0));
        final List<String> candles = new ArrayList<>();
        expected.values().forEach(c -> candles.add(c.row()));
        candles.sort(null);
        final List<String> actual = new ArrayList<>(rows.subList(1, rows.size()));
        actual.sort(null);
        assertTrue(candles.size() > 100, "candles: " + candles.size());
        assertEquals(candles, actual);

        final Path replayed = dir.resolve("replayed.csv");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--key", "instrument", "--window", "tumbling:1m",
            "--out-of-orderness", "30s", "--aggregates", CANDLES, "--results", replayed.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(rows, Files.readAllLines(replayed), "a replay gives the run's rows");
    }

    /**
     * Writes about an hour of trades of four instruments, out of order by up to {@link #DISORDER} ms, half of
     * them on whole seconds (so many share an event time, and some fall on a minute's start), and computes
     * each (instrument, minute)'s candle from the lines in file order.
     */
    private Path trades(final SplittableRandom random, final Map<String, Candle> candles) throws IOException
    {
        final List<String> lines = new ArrayList<>(List.of("event_id,event_time,instrument,price,qty"));
        long cursor = 1_764_460_800_000L + DISORDER;
        for (int line = 0; line < 6_000; line++)
        {
            cursor += random.nextInt(1_200);
            long time = random.nextInt(3) == 0 ? cursor - random.nextInt((int)DISORDER) : cursor;
            if (random.nextBoolean())
            {
                time -= time % 1_000;
            }
            final String instrument = List.of("AAPL", "MSFT", "EURUSD", "BTC-USD").get(random.nextInt(4));
            final BigDecimal price = BigDecimal.valueOf(5_000 + random.nextInt(20_000), 2);
            final long qty = 1 + random.nextInt(500);
            final String written = random.nextInt(5) == 0 ? price.stripTrailingZeros().toPlainString() : price.toPlainString();
            lines.add(line + "," + time + "," + instrument + "," + written + "," + qty);
            final long start = time - Math.floorMod(time, MINUTE);
            candles.computeIfAbsent(instrument + "@" + start, k -> new Candle(start, instrument)).add(time, price, qty);
        }
        final Path file = dir.resolve("trades.csv");
        Files.write(file, lines);
        return file;
    }

    /** One (instrument, minute)'s candle, built from its trades in file order. */
    private static final class Candle
    {
        private final long start;
        private final String instrument;
        private long openTime = Long.MAX_VALUE;
        private long closeTime = Long.MIN_VALUE;
        private BigDecimal open;
        private BigDecimal close;
        private BigDecimal high;
        private BigDecimal low;
        private long volume;
        private BigDecimal turnover = BigDecimal.ZERO;
        private long trades;

        Candle(final long start, final String instrument)
        {
            this.start = start;
            this.instrument = instrument;
        }

        void add(final long time, final BigDecimal price, final long qty)
        {
            if (time < openTime)
            {
                openTime = time;
                open = price; // a later line of the same time is not the open
            }
            if (time >= closeTime)
            {
                closeTime = time;
                close = price; // a later line of the same time is the close
            }
            high = high == null || price.compareTo(high) > 0 ? price : high;
            low = low == null || price.compareTo(low) < 0 ? price : low;
            volume += qty;
            turnover = turnover.add(price.multiply(BigDecimal.valueOf(qty)));
            trades++;
        }

        String row()
        {
            final BigDecimal vwap = turnover.divide(BigDecimal.valueOf(volume), 6, RoundingMode.HALF_EVEN);
            return start + "," + (start + MINUTE) + "," + instrument + "," + open.toPlainString() + "," + high.toPlainString() + ","
                + low.toPlainString() + "," + close.toPlainString() + "," + volume + "," + vwap.toPlainString() + "," + trades + ",0";
        }
    }
}
