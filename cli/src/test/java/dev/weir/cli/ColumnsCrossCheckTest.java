package dev.weir.cli;

import dev.weir.csv.CsvFields;
import dev.weir.journal.files.CsvText;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cross-check of issue 14: a query over a six-column journal, keyed and valued by any of its
 * columns, gives the results of the same query run on a four-column projection of the same CSV
 * ({@code event_id,event_time,key,value}), whose engine the model tests and the golden cases check.
 * The payments hold quoted fields with commas and quotes, decimals and out-of-order times.
 */
class ColumnsCrossCheckTest
{
    private static final String COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string";
    private static final String[] MERCHANTS = {"m-1", "m-2", "\"Café \"\"Le Bon\"\", Paris\"", "m-4", "\"Shop, Inc.\""};
    private static final String[] COUNTRIES = {"FR", "DE", "IT"};

    @TempDir
    Path dir;

    @Test
    void aQueryByAnyColumnGivesTheResultsOfTheSameQueryOnAFourColumnProjection() throws IOException
    {
        final List<String> payments = new ArrayList<>(List.of("event_id,event_time,card,merchant,country,amount,fee,channel"));
        final List<String> byCard = new ArrayList<>(List.of("event_id,event_time,key,value"));
        final List<String> byCountry = new ArrayList<>(List.of("event_id,event_time,key,value"));
        final List<String> byPlace = new ArrayList<>(List.of("event_id,event_time,key,value"));
        final List<String> byFee = new ArrayList<>(List.of("event_id,event_time,key,value"));
        final SplittableRandom random = new SplittableRandom(14);
        for (int i = 1; i <= 3_000; i++)
        {
            final long time = 1_000_000L + i * 40L - random.nextInt(600);
            final String card = "card-" + random.nextInt(25);
            final int m = random.nextInt(MERCHANTS.length);
            final String merchant = MERCHANTS[m];
            final String country = COUNTRIES[random.nextInt(COUNTRIES.length)];
            final long cents = random.nextLong(-5_000, 500_000);
            final String amount = BigDecimal.valueOf(cents, 2).toPlainString();
            final long fee = random.nextInt(100);
            payments.add(i + "," + time + "," + card + "," + merchant + "," + country + "," + amount + "," + fee + "," + (i % 3 == 0 ? "pos" : "online"));
            byCard.add(i + "," + time + "," + card + "," + cents);
            byCountry.add(i + "," + time + "," + country + "," + fee);
            byPlace.add(i + "," + time + ",m" + m + "-" + country + "," + cents);
            byFee.add(i + "," + time + ",f" + fee + "," + cents);
        }
        final Path six = write("payments.csv", payments);

        final Path sixJournal = dir.resolve("payments");
        final Path bySix = dir.resolve("by-card-6.csv");
        run("run", "--input", six.toString(), "--columns", COLUMNS, "--journal", sixJournal.toString(), "--key", "card", "--value", "amount",
            "--window", "sliding:10s/2s", "--out-of-orderness", "1s", "--results", bySix.toString());
        final Path byFour = dir.resolve("by-card-4.csv");
        run("run", "--input", write("by-card.csv", byCard).toString(), "--window", "sliding:10s/2s", "--out-of-orderness", "1s",
            "--results", byFour.toString());
        assertSameRows(Files.readAllLines(byFour), Files.readAllLines(bySix), "card", 2);

        final Path countrySix = dir.resolve("by-country-6.csv");
        run("replay", "--journal", sixJournal.toString(), "--key", "country", "--value", "fee", "--window", "tumbling:5s",
            "--out-of-orderness", "500ms", "--results", countrySix.toString());
        final Path countryFour = dir.resolve("by-country-4.csv");
        run("run", "--input", write("by-country.csv", byCountry).toString(), "--window", "tumbling:5s", "--out-of-orderness", "500ms",
            "--results", countryFour.toString());
        assertSameRows(Files.readAllLines(countryFour), Files.readAllLines(countrySix), "country", 0);

        // a composite key: one results column per key column, quoted as the input was
        final Path placeSix = dir.resolve("by-place-6.csv");
        run("replay", "--journal", sixJournal.toString(), "--key", "merchant,country", "--value", "amount", "--window", "session:300ms",
            "--out-of-orderness", "800ms", "--results", placeSix.toString());
        final Path placeFour = dir.resolve("by-place-4.csv");
        run("run", "--input", write("by-place.csv", byPlace).toString(), "--window", "session:300ms", "--out-of-orderness", "800ms",
            "--results", placeFour.toString());
        assertSameRows(Files.readAllLines(placeFour), joinKey(Files.readAllLines(placeSix), "merchant,country",
            f -> "m" + List.of(MERCHANTS).indexOf(CsvText.quote(f[0])) + "-" + f[1]), "key", 2);

        // a long key column
        final Path feeSix = dir.resolve("by-fee-6.csv");
        run("replay", "--journal", sixJournal.toString(), "--key", "fee", "--value", "amount", "--window", "tumbling:3s",
            "--out-of-orderness", "400ms", "--results", feeSix.toString());
        final Path feeFour = dir.resolve("by-fee-4.csv");
        run("run", "--input", write("by-fee.csv", byFee).toString(), "--window", "tumbling:3s", "--out-of-orderness", "400ms",
            "--results", feeFour.toString());
        assertSameRows(Files.readAllLines(feeFour), joinKey(Files.readAllLines(feeSix), "fee", f -> "f" + f[0]), "key", 2);
    }

    /**
     * The six-column rows with their key columns joined into one key field as the four-column file spells it.
     *
     * @param rows    the results CSV, header first.
     * @param columns the key columns' names as the header lists them.
     * @param key     the four-column key of a row's key fields.
     * @return the rows with one key field named {@code key}.
     */
    private static List<String> joinKey(final List<String> rows, final String columns, final java.util.function.Function<String[], String> key)
    {
        final int arity = columns.split(",").length;
        assertEquals("window_start,window_end," + columns + ",count,sum,min,max,version", rows.get(0), "header");
        final List<String> joined = new ArrayList<>(List.of(rows.get(0).replace("," + columns + ",", ",key,")));
        final CsvFields fields = new CsvFields();
        for (final String row : rows.subList(1, rows.size()))
        {
            assertEquals(null, fields.split(row, null), row);
            final String[] keyFields = new String[arity];
            for (int i = 0; i < arity; i++)
            {
                keyFields[i] = fields.text(2 + i);
            }
            final StringBuilder line = new StringBuilder(fields.text(0)).append(',').append(fields.text(1)).append(',').append(key.apply(keyFields));
            for (int i = 2 + arity; i < fields.count(); i++)
            {
                line.append(',').append(fields.text(i));
            }
            joined.add(line.toString());
        }
        return joined;
    }

    @Test
    void aKeyOrValueColumnTheJournalDoesNotHaveIsRefusedWithItsColumns() throws IOException
    {
        final Path input = write("payments.csv", List.of("event_id,event_time,card,amount", "1,1000,c1,1.50"));
        final Path journal = dir.resolve("payments");
        for (final String[] choice : new String[][] {{}, {"--key", "card,total", "--value", "amount"}, {"--key", "card", "--value", "card"}})
        {
            final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--columns", "card:string,amount:decimal(2)",
                "--journal", journal.toString(), "--window", "tumbling:10s", "--results", dir.resolve("r.csv").toString()));
            args.addAll(List.of(choice));
            final Cli cli = Cli.run(args.toArray(new String[0]));
            assertEquals(2, cli.exit(), cli.out() + cli.err());
            org.junit.jupiter.api.Assertions.assertTrue(cli.err().contains("card:string,amount:decimal(2)"), cli.err());
        }
    }

    /** The six-column rows name the key column and print the value at its scale; otherwise the rows are the same. */
    private static void assertSameRows(final List<String> four, final List<String> six, final String keyColumn, final int scale)
    {
        assertEquals(four.get(0).replace(",key,", "," + keyColumn + ","), six.get(0), "header");
        assertEquals(four.size(), six.size(), "rows");
        final List<String> unscaled = new ArrayList<>();
        for (final String row : six.subList(1, six.size()))
        {
            final String[] f = row.split(",");
            for (int i = 4; i <= 6; i++)
            {
                f[i] = new BigDecimal(f[i]).movePointRight(scale).toBigIntegerExact().toString();
            }
            unscaled.add(String.join(",", f));
        }
        assertEquals(four.subList(1, four.size()), unscaled);
    }

    private void run(final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(0, cli.exit(), String.join(" ", args) + "\n" + cli.out() + cli.err());
    }

    private Path write(final String name, final List<String> lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, lines);
        return file;
    }
}
