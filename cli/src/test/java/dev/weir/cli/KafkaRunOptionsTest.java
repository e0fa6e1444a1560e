package dev.weir.cli;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code weir run --kafka} with flags it cannot take: one clear message and exit code 2, before any connection (the
 * address given answers nothing, so a connection attempt would hang, not exit 2).
 */
final class KafkaRunOptionsTest
{
    @TempDir
    Path dir;

    @Test
    void badFlagsExit2WithOneMessage()
    {
        final String journal = dir.resolve("j").toString();
        expectRefused("--kafka needs --topic T, --group G and --output-topic O",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--journal", journal, "--window", "tumbling:1s");
        expectRefused("--kafka needs --journal DIR",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--window", "tumbling:1s");
        expectRefused("--kafka takes no --input",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal,
            "--input", dir.resolve("x.csv").toString(), "--window", "tumbling:1s");
        expectRefused("--kafka takes no --results",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal,
            "--results", dir.resolve("r.csv").toString(), "--window", "tumbling:1s");
        expectRefused("shop is not a column",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal,
            "--columns", "card:string,merchant:string,amount:long", "--key", "card,shop", "--value", "amount", "--window", "tumbling:1s");
        expectRefused("is not a column",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal,
            "--key", "card", "--window", "tumbling:1s");
        expectRefused("--aggregates: aggregates 'n=count(),p=max(prize)': unknown column 'prize'",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal,
            "--window", "tumbling:1s", "--aggregates", "n=count(),p=max(prize)");
        expectRefused("--kafka localhost: not HOST:PORT",
            "run", "--kafka", "localhost", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal, "--window", "tumbling:1s");
        expectRefused("--transaction-timeout",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal,
            "--transaction-timeout", "10ms", "--window", "tumbling:1s");
        expectRefused("--idle-timeout must be > 0",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal,
            "--idle-timeout", "0s", "--window", "tumbling:1s");
        expectRefused("--record-format must be csv or json, not avro",
            "run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal,
            "--record-format", "avro", "--window", "tumbling:1s");
    }

    @Test
    void tablesAreDeclaredWithKafkaAndJoinedColumnsAreChecked()
    {
        final String journal = dir.resolve("j").toString();
        final String[] kafka = {"run", "--kafka", "127.0.0.1:1", "--topic", "t", "--group", "g", "--output-topic", "o", "--journal", journal,
            "--columns", "card:string,country:string,amount:long", "--key", "card", "--value", "amount", "--window", "tumbling:1s"};
        expectRefused("--table cards: give NAME(KEY[,KEY...])=COLUMNS", with(kafka, "--table", "cards", "--join", "cards"));
        expectRefused("--table cards(shop)=card:string,home:string: table cards: key column 'shop' is not one of its columns",
            with(kafka, "--table", "cards(shop)=card:string,home:string", "--join", "cards"));
        expectRefused("table name 'Cards' must match", with(kafka, "--table", "Cards(card)=card:string,home:string"));
        expectRefused("is not name:type", with(kafka, "--table", "cards(card)=card:string,home:nosuchtype"));
        expectRefused("table cards is declared twice",
            with(kafka, "--table", "cards(card)=card:string,home:string", "--table", "cards(card)=card:string"));
        expectRefused("--join cards: declare the table with --table 'cards(KEY)=COLUMNS' for --kafka", with(kafka, "--join", "cards"));
        expectRefused("--join cards: declare the table with --table 'cards(KEY)=COLUMNS' for --kafka",
            with(kafka, "--table", "banks(bank)=bank:string", "--join", "cards"));
        expectRefused("--where",
            with(kafka, "--table", "cards(card)=card:string,home:string", "--join", "cards", "--where", "country != cards.nosuch"));
        expectRefused("amount", with(kafka, "--table", "cards(card)=card:string,home:string", "--join", "cards:card=amount"));
        // the joined columns are the check's: it passes on to the next refusal, the record format's
        expectRefused("--record-format must be csv or json, not avro", with(kafka, "--table", "cards(card)=card:string,home:string,limit:long",
            "--join", "cards", "--where", "country != cards.home and cards.limit > amount", "--record-format", "avro"));
        expectRefused(TableOption.NOT_LOCAL, "run", "--input", dir.resolve("x.csv").toString(), "--journal", journal,
            "--table", "cards(card)=card:string,home:string", "--join", "cards", "--window", "tumbling:1s");
    }

    private static String[] with(final String[] args, final String... more)
    {
        final String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }

    private static void expectRefused(final String message, final String... args)
    {
        final Cli run = Cli.run(args);
        assertEquals(2, run.exit(), () -> String.join(" ", args) + ": " + run.out() + run.err());
        assertTrue(run.err().contains(message), () -> "expected '" + message + "' in: " + run.err());
        assertEquals(1, run.err().strip().lines().count(), () -> "one message: " + run.err());
    }
}
