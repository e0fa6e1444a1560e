package dev.weir.examples.fraud;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.RunSummary;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fraud detector's rules that join the card profile table, {@code spend} (above the card's own limit) and
 * {@code abroad} (outside the card's home): given payments and profile rows by hand, they alert as computed by hand;
 * in the detector, they alert exactly as a plain computation from the generated payments and profile rows says (each
 * card's row as of the payment's time, among the rows appended before it), and a replay of the journal gives the
 * same alerts. The alerts depend only on the payments and the rows, not on timing.
 */
class CardProfileRulesTest
{
    private static final int PAYMENTS = 60_000;
    private static final int CARDS = 100_000;
    private static final long SEED = 42;
    private static final long SLIDE_MS = 5_000;
    private static final long SLIDING_SIZE_MS = 60_000;
    private static final long MINUTE_MS = 60_000;

    @TempDir
    Path dir;

    /** A version of a card's profile, as appended: valid from {@code from}; a deleted card's has home -1. */
    private record Version(long from, int home, long limitCents)
    {
    }

    /**
     * What the plain computation expects: alerts as {@code payment@windowStart}, the cards the spend rule alerts,
     * the payments the abroad rule alerts per card, and the payments no row matched.
     */
    private record Expected(List<String> spend, List<String> abroad, Set<Integer> spendCards, Map<Integer, Integer> abroadPerCard, long unmatched)
    {
    }

    /** A journal of payments and card profiles, written by hand. */
    private static final class HandJournal implements AutoCloseable
    {
        private final Path path;
        private final EventJournal writer;
        private final TableAppender cards;
        private final TableRow profile;
        /** Each payment's offset, in order. */
        private final List<Long> payments = new ArrayList<>();

        HandJournal(final Path path)
        {
            this.path = path;
            JournalDirectory.openOrCreate(path, JournalSchema.parse(Payments.COLUMNS));
            this.writer = EventJournal.open(JournalDirectory.openOrCreateForTable(path, CardProfiles.TABLE, null));
            this.cards = writer.table("cards");
            this.profile = cards.row();
        }

        HandJournal profile(final long from, final String card, final String home, final long limitCents)
        {
            cards.upsert(profile.clear().validFrom(from).setString(0, card).setString(1, home).setLong(2, limitCents).setString(3, "standard"));
            return this;
        }

        HandJournal delete(final long from, final String card)
        {
            cards.delete(profile.clear().validFrom(from).setString(0, card));
            return this;
        }

        /** A payment at merchant m1 with the columns of {@link Payments#COLUMNS}, amount and fee in cents. */
        HandJournal pay(final long time, final String card, final String country, final long amount, final long fee, final String channel,
            final String status)
        {
            payments.add(writer.append(writer.row().eventId(payments.size()).eventTime(time).setString(0, writer.stringId(0, card))
                .setString(1, writer.stringId(1, "m1")).setString(2, writer.stringId(2, country)).setLong(3, amount).setLong(4, fee)
                .setString(5, writer.stringId(5, channel)).setString(6, writer.stringId(6, status))));
            return this;
        }

        @Override
        public void close()
        {
            writer.close();
        }
    }

    @Test
    void spendAlertsEarlyOnThePaymentThatCrossesTheCardsOwnLimitAsOfItsTime()
    {
        try (HandJournal hand = new HandJournal(dir.resolve("journal")))
        {
            hand.profile(0, "c1", "FR", 5_000_00).profile(0, "c2", "FR", 1_000_00)
                .profile(2_800, "c1", "FR", 6_000_00); // c1's limit raised from 2,800 on: appended before, valid from the future
            hand.pay(1_000, "c1", "FR", 2_000_00, 20_00, "online", "approved"); // payment 0: c1 at 1,980.00
            hand.pay(1_500, "c2", "FR", 900_00, 0, "online", "declined"); // 1: not approved
            hand.pay(1_600, "c2", "FR", 900_00, 0, "pos", "approved"); // 2: not online
            hand.pay(2_000, "c1", "FR", 2_000_00, 20_00, "online", "approved"); // 3: c1 at 3,960.00
            hand.pay(2_500, "c2", "FR", 600_00, 6_00, "online", "approved"); // 4: c2 at 594.00
            hand.pay(3_000, "c2", "FR", 500_00, 5_00, "online", "approved"); // 5: c2 at 1,089.00 > its 1,000.00
            hand.pay(3_000, "c1", "FR", 1_100_00, 11_00, "online", "approved"); // 6: c1 at 5,049.00, not above its 6,000.00 now
            hand.pay(4_000, "c1", "FR", 1_000_00, 10_00, "online", "approved"); // 7: c1 at 6,039.00 > 6,000.00
            final List<String> alerts = new ArrayList<>();
            replay(FraudRules.spend(), hand.path, ResultKind.EARLY, alerts);
            // each payment lies in the 12 sliding windows [s, s + 60 s) with s = -55 s, -50 s, ..., 0: one early row per window
            final List<String> expected = new ArrayList<>();
            for (final int payment : new int[] {5, 7})
            {
                for (long start = -55_000; start <= 0; start += SLIDE_MS)
                {
                    expected.add(hand.payments.get(payment) + "@" + start);
                }
            }
            assertEquals(expected, alerts);
        }
    }

    @Test
    void abroadAlertsEachPaymentOutsideTheHomeValidAtItsTime()
    {
        try (HandJournal hand = new HandJournal(dir.resolve("journal")))
        {
            hand.profile(0, "c1", "FR", 5_000_00).profile(0, "c2", "FR", 5_000_00)
                .profile(5_000, "c1", "DE", 5_000_00) // c1 moves to DE from 5,000 on: a row valid from the future
                .delete(3_000, "c2"); // c2 is deleted from 3,000 on
            hand.pay(1_000, "c1", "DE", 10_00, 0, "pos", "approved"); // payment 0: abroad
            hand.pay(2_000, "c2", "DE", 10_00, 0, "online", "approved"); // 1: abroad
            hand.pay(3_500, "c2", "DE", 10_00, 0, "online", "approved"); // 2: no row (deleted): unmatched
            hand.pay(4_000, "c1", "FR", 10_00, 0, "pos", "approved"); // 3: at home
            hand.pay(5_000, "c1", "DE", 10_00, 0, "pos", "approved"); // 4: at home from now on
            hand.pay(6_000, "c1", "FR", 10_00, 0, "online", "approved"); // 5: abroad
            hand.pay(6_500, "c3", "DE", 10_00, 0, "online", "approved"); // 6: no row (no profile): unmatched
            final List<String> alerts = new ArrayList<>();
            final RunSummary run = replay(FraudRules.abroad(), hand.path, ResultKind.UPDATE, alerts);
            assertEquals(List.of(hand.payments.get(0) + "@0", hand.payments.get(1) + "@0", hand.payments.get(5) + "@0"), alerts);
            assertEquals(2, run.unmatched());
        }
    }

    @Test
    void theJoinedRulesAlertAsAPlainComputationOfTheDataAndAReplayGivesTheSameAlerts() throws Exception
    {
        final FraudSummary summary = new FraudDetector(dir, PAYMENTS, CARDS, 50_000, SEED).run();
        final Expected expected = plain();
        assertEquals(expected.spend(), byPayment(summary.spend()), "the first crossing of each card's own limit, per card and window");
        assertEquals(expected.abroad(), byPayment(summary.abroad()), "each payment outside the home valid at its time");
        // each change shows in the data: five bursts, by cards CARDS + 0 to 4, all standard (limit 5,000.00), each
        // from one country that is not the card's home; the second's limit is raised, the third's home moves to the
        // burst's country from its fifth payment on, the fourth is deleted from its sixth on
        assertEquals(5, summary.fraudCards().size());
        assertEquals(Set.of(CARDS, CARDS + 2, CARDS + 4), fraudCards(expected.spendCards()), "the raised limit is not crossed; the deleted card"
            + " crossed none before");
        assertEquals(Map.of(CARDS, 10, CARDS + 1, 10, CARDS + 2, 4, CARDS + 3, 5, CARDS + 4, 10), fraudCards(expected.abroadPerCard()));
        assertEquals(5, expected.unmatched(), "the deleted card's last five payments");

        final Path journal = dir.resolve("payments");
        final List<String> spendReplay = new ArrayList<>();
        final RunSummary spendRun = replay(FraudRules.spend(), journal, ResultKind.EARLY, spendReplay);
        assertEquals(byOffset(summary.spend()), spendReplay, "a replay gives the spend rule's alerts");
        assertEquals(expected.unmatched(), spendRun.unmatched());
        final List<String> abroadReplay = new ArrayList<>();
        final RunSummary abroadRun = replay(FraudRules.abroad(), journal, ResultKind.UPDATE, abroadReplay);
        assertEquals(byOffset(summary.abroad()), abroadReplay, "a replay gives the abroad rule's alerts");
        assertEquals(expected.unmatched(), abroadRun.unmatched());
    }

    private static Set<Integer> fraudCards(final Set<Integer> cards)
    {
        return cards.stream().filter(c -> c >= CARDS).collect(Collectors.toSet());
    }

    private static Map<Integer, Integer> fraudCards(final Map<Integer, Integer> perCard)
    {
        return perCard.entrySet().stream().filter(e -> e.getKey() >= CARDS).collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static RunSummary replay(final PipelineBuilder rule, final Path journal, final ResultKind alert, final List<String> alerts)
    {
        return rule.journal(journal).replayRange(-1, Long.MAX_VALUE).onResult(r ->
        {
            if (r.kind() == alert)
            {
                alerts.add(r.sourceOffset() + "@" + r.windowStart());
            }
        }).build().runToEnd();
    }

    private static List<String> byPayment(final FraudSummary.Rule rule)
    {
        return rule.alerts().stream().map(a -> a.payment() + "@" + a.windowStart()).collect(Collectors.toList());
    }

    private static List<String> byOffset(final FraudSummary.Rule rule)
    {
        return rule.alerts().stream().map(a -> a.offset() + "@" + a.windowStart()).collect(Collectors.toList());
    }

    /**
     * The rules computed plainly from the generated stream: a card's versions in the order the appender appends them
     * (its profile as issued, valid from 0, before its first payment; then the change a payment brings, before it);
     * a payment joins the version with the greatest valid-from at or before its time (of equal ones, the later
     * appended); none, or a deleted card's, leaves it out of both rules.
     */
    private static Expected plain()
    {
        final Payments stream = new Payments(SEED, CARDS, FraudDetector.FRAUD_EVERY);
        final Map<Integer, List<Version>> table = new HashMap<>();
        final Map<String, Long> spent = new HashMap<>();
        final Set<String> crossed = new HashSet<>();
        final List<String> spend = new ArrayList<>();
        final List<String> abroad = new ArrayList<>();
        final Set<Integer> spendCards = new HashSet<>();
        final Map<Integer, Integer> abroadPerCard = new HashMap<>();
        long unmatched = 0;
        for (int i = 0; i < PAYMENTS; i++)
        {
            stream.next(i);
            final int card = stream.card;
            final List<Version> versions = table.computeIfAbsent(card,
                c -> new ArrayList<>(List.of(new Version(0, CardProfiles.home(c), CardProfiles.limitCents(c)))));
            switch (stream.change)
            {
                case RAISED_LIMIT -> versions.add(new Version(stream.changeFrom, CardProfiles.home(card), CardProfiles.RAISED_LIMIT_CENTS));
                case MOVED_HOME -> versions.add(new Version(stream.changeFrom, stream.country, CardProfiles.limitCents(card)));
                case DELETED -> versions.add(new Version(stream.changeFrom, -1, 0));
                default ->
                {
                }
            }
            final Version row = asOf(versions, stream.eventTime);
            if (row == null || row.home() < 0)
            {
                unmatched++;
                continue;
            }
            if (stream.country != row.home())
            {
                abroad.add(i + "@" + Math.floorDiv(stream.eventTime, MINUTE_MS) * MINUTE_MS);
                abroadPerCard.merge(card, 1, Integer::sum);
            }
            if (Payments.CHANNELS[stream.channel].equals("online") && Payments.STATUSES[stream.status].equals("approved"))
            {
                final long last = Math.floorDiv(stream.eventTime, SLIDE_MS) * SLIDE_MS;
                for (long start = last - SLIDING_SIZE_MS + SLIDE_MS; start <= last; start += SLIDE_MS)
                {
                    final String window = card + "@" + start;
                    final long sum = spent.merge(window, stream.amount - stream.fee, Long::sum);
                    if (sum > row.limitCents() && crossed.add(window))
                    {
                        spend.add(i + "@" + start);
                        spendCards.add(card);
                    }
                }
            }
        }
        return new Expected(spend, abroad, spendCards, abroadPerCard, unmatched);
    }

    private static Version asOf(final List<Version> versions, final long time)
    {
        Version found = null;
        for (final Version v : versions)
        {
            if (v.from() <= time && (found == null || v.from() >= found.from()))
            {
                found = v;
            }
        }
        return found;
    }
}
