package dev.weir.examples.fraud;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineBuilder;
import dev.weir.journal.codec.ResultKind;
import org.agrona.collections.IntHashSet;

/**
 * A card-fraud detector that embeds Weir: one journal of payments with columns
 * ({@value Payments#COLUMNS}) and a card profile table {@code cards} ({@value CardProfiles#COLUMNS}, keyed by
 * card), one appender, and six rules, each a named pipeline following the journal with its own key, window, state
 * and checkpoints:
 * <ul>
 * <li>{@code spend}: a card's approved online spend net of fees (a filter,
 * {@code where("channel = 'online' and status = 'approved'")}, whose other payments still move the rule's
 * watermark, and a computed value, {@code value("amount - fee")}) in a sliding 60 s / 5 s window above the
 * card's own limit ({@code join("cards")}, {@code earlyWhen("sum > cards.limit")}: the limit of the card's profile
 * as of the payment's time), alerted by the window's early row on the payment that crossed the limit (not
 * when the window closes);</li>
 * <li>{@code abroad}: each payment made outside its card's home country as of its time
 * ({@code where("country != cards.home")}), alerted by an update row;</li>
 * <li>{@code declines}: {@link #DECLINE_LIMIT} or more declined payments of one card in a sliding 60 s / 10 s
 * window ({@code where("status = 'declined'")}), alerted early on the decline that reaches the limit;</li>
 * <li>{@code bursts}: a session of payments (gap 10 s) on one card holding more than {@link #BURST_LIMIT};</li>
 * <li>{@code merchants}: a card paying {@link #MERCHANT_LIMIT} or more distinct merchants in a tumbling
 * minute (an approximate distinct count of the merchant column);</li>
 * <li>{@code places}: spend per merchant and country per tumbling minute (a composite key), which the
 * service reports; after the followers stop, a bounded run of it fires the minutes left open, so every
 * payment is counted once.</li>
 * </ul>
 * The alert latency is measured from the moment the payment whose processing raised the alert (for the
 * spend rule the crossing payment, for the others the one whose event time fired the window) was appended
 * to the moment its alert is raised, leaving out the alerts of the first quarter of the payments (the JIT's
 * warm-up: the first alerts of a fresh JVM wait for compilation). The payments are simulated at {@code rate} per second of wall-clock
 * time, with event time running at 500 payments per second of card traffic.
 * <p>
 * Run it with {@code ./weir example} (see docs/cli.md). Not thread-safe: {@link #run()} on one thread;
 * alerts are raised on the pipelines' threads.
 */
public final class FraudDetector
{
    /** Payments in one session above which a card is alerted. */
    public static final int BURST_LIMIT = 8;
    /** Declined payments in one window from which a card is alerted. */
    public static final int DECLINE_LIMIT = 3;
    /** Distinct merchants in one minute from which a card is alerted. */
    public static final int MERCHANT_LIMIT = 6;

    static final int FRAUD_EVERY = 10_000;
    /** The name of the card profiles' CSV that {@code csv FILE} writes beside FILE. */
    static final String CARDS_CSV = "cards.csv";
    /** Alerts raised by the first 1/{@value} of the payments are not measured: the JIT is still compiling the engine. */
    static final int WARMUP_FRACTION = 4;

    private final Path dir;
    private final int payments;
    private final int cards;
    private final long rate;
    private final long seed;
    private final long[] appendedNanos;
    private final long[] offsets;
    private final RuleAlerts spend = new RuleAlerts();
    private final RuleAlerts abroad = new RuleAlerts();
    private final RuleAlerts bursts = new RuleAlerts();
    private final RuleAlerts merchants = new RuleAlerts();
    private final RuleAlerts declines = new RuleAlerts();
    private final PlaceTotals places = new PlaceTotals();
    private final IntHashSet fraudCards = new IntHashSet();

    /**
     * @param dir      an empty or missing directory for the journal.
     * @param payments how many payments to make.
     * @param cards    how many ordinary cards.
     * @param rate     payments per second of wall-clock time.
     * @param seed     the payments' seed.
     */
    public FraudDetector(final Path dir, final int payments, final int cards, final long rate, final long seed)
    {
        this.dir = dir;
        this.payments = payments;
        this.cards = cards;
        this.rate = rate;
        this.seed = seed;
        this.appendedNanos = new long[payments];
        this.offsets = new long[payments];
    }

    /**
     * Make the payments, wait until every rule has applied them, stop the rules, and fire the places rule's
     * open minutes with a bounded run.
     *
     * @return what the rules found.
     * @throws InterruptedException if interrupted.
     */
    public FraudSummary run() throws InterruptedException
    {
        final Path journal = dir.resolve("payments");
        final long started = System.nanoTime();
        long totalCents = 0;
        try (PaymentAppender appender = PaymentAppender.open(journal);
             Pipeline spendRule = rule(FraudRules.spend(), journal, "spend")
                 .onResult(r -> spend.onResult(r, r.kind() == ResultKind.EARLY)).build().start();
             Pipeline abroadRule = rule(FraudRules.abroad(), journal, "abroad")
                 .onResult(r -> abroad.onResult(r, r.kind() == ResultKind.UPDATE)).build().start();
             Pipeline burstRule = rule(FraudRules.bursts(), journal, "bursts")
                 .onResult(r -> bursts.onResult(r, r.count() > BURST_LIMIT)).build().start();
             Pipeline merchantRule = rule(FraudRules.merchants(), journal, "merchants")
                 .onResult(r -> merchants.onResult(r, r.aggregate() >= MERCHANT_LIMIT)).build().start();
             Pipeline declineRule = rule(FraudRules.declines(), journal, "declines")
                 .onResult(r -> declines.onResult(r, r.kind() == ResultKind.EARLY)).build().start();
             Pipeline placeRule = places(journal).build().start())
        {
            final Payments stream = new Payments(seed, cards, FRAUD_EVERY);
            for (int i = 0; i < payments; i++)
            {
                final long due = started + i * 1_000_000_000L / rate;
                while (System.nanoTime() < due)
                {
                    Thread.yield(); // six pipelines and this producer share the machine's cores
                }
                stream.next(i);
                if (stream.fraud)
                {
                    fraudCards.add(appender.cardId(stream.card));
                }
                totalCents += stream.amount;
                appendedNanos[i] = System.nanoTime();
                offsets[i] = appender.append(i, stream);
            }
            final long last = offsets[payments - 1];
            for (final Pipeline rule : new Pipeline[] {spendRule, abroadRule, burstRule, merchantRule, declineRule, placeRule})
            {
                if (!rule.awaitOffset(last, 60, TimeUnit.SECONDS))
                {
                    throw new IllegalStateException("a rule did not catch up");
                }
            }
        }
        final int warmup = payments / WARMUP_FRACTION;
        // the followers have stopped: their alerts, and these arrays, are all visible here. A bounded run of
        // the places rule resumes from its checkpoint and fires the minutes the follower left open.
        places(journal).build().runToEnd();
        return new FraudSummary(payments, cards, fraudCards, warmup, spend.result(offsets, appendedNanos, warmup),
            abroad.result(offsets, appendedNanos, warmup), bursts.result(offsets, appendedNanos, warmup), merchants.result(offsets, appendedNanos, warmup),
            declines.result(offsets, appendedNanos, warmup), places.windows(), places.cents(), places.payments(), totalCents,
            System.nanoTime() - started);
    }

    private static PipelineBuilder rule(final PipelineBuilder rule, final Path journal, final String name)
    {
        return rule.journal(journal).pipeline(name);
    }

    private PipelineBuilder places(final Path journal)
    {
        return rule(FraudRules.places(), journal, "places").onResult(places::onResult);
    }

    /**
     * {@code FraudDetector [payments [rate]]}: run in a new temporary directory and print the summary;
     * {@code FraudDetector csv FILE [payments]}: write the payments as an events CSV instead, and the card profiles
     * as a table CSV, {@value #CARDS_CSV}, beside it.
     *
     * @param args as above; default 200,000 payments at 20,000 per second.
     * @throws Exception if the run fails.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length > 0 && args[0].equals("csv"))
        {
            writeCsv(args);
            return;
        }
        final int payments;
        final long rate;
        try
        {
            if (args.length > 2)
            {
                throw new NumberFormatException("too many arguments");
            }
            payments = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
            rate = args.length > 1 ? Long.parseLong(args[1]) : 20_000;
            if (payments <= 0 || rate <= 0)
            {
                throw new NumberFormatException("payments and rate must be greater than zero");
            }
        }
        catch (final NumberFormatException ex)
        {
            usage(args, ex.getMessage());
            return;
        }
        final Path dir = Files.createTempDirectory("weir-fraud-");
        System.out.println("journal in " + dir.resolve("payments"));
        new FraudDetector(dir, payments, 100_000, rate, 42).run().print(System.out);
    }

    private static void writeCsv(final String[] args) throws IOException
    {
        final int payments;
        try
        {
            if (args.length < 2 || args.length > 3)
            {
                throw new NumberFormatException("csv takes a file and, optionally, how many payments");
            }
            payments = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
            if (payments <= 0)
            {
                throw new NumberFormatException("payments must be greater than zero");
            }
        }
        catch (final NumberFormatException ex)
        {
            usage(args, ex.getMessage());
            return;
        }
        final Path file = Path.of(args[1]);
        final Path profiles = file.toAbsolutePath().resolveSibling(CARDS_CSV);
        if (profiles.equals(file.toAbsolutePath()))
        {
            usage(args, "the payments' file cannot be named " + CARDS_CSV + ": the card profiles are written there");
            return;
        }
        final int rows = PaymentsCsv.write(file, profiles, payments, 100_000, 42);
        System.out.printf("wrote %,d payments to %s (columns %s)%n", payments, file, Payments.COLUMNS);
        System.out.printf("wrote %,d card profile rows to %s (table cards, key card, columns %s)%n", rows, profiles, CardProfiles.COLUMNS);
    }

    private static void usage(final String[] args, final String problem)
    {
        System.err.println("usage: weir example [payments [rate per second]]   (default: 200000 20000)\n"
            + "       weir example csv FILE [payments]              (write the payments as an events CSV, and " + CARDS_CSV + " beside it)"
            + (args.length > 0 && args[0].startsWith("-") ? "" : "\nweir example: " + problem));
        System.exit(args.length > 0 && (args[0].equals("--help") || args[0].equals("-h")) ? 0 : 2);
    }
}
