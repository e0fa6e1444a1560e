package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

import dev.weir.journal.EventJournal;

/**
 * The bid events of a NEXMark stream, seeded, written to a Weir journal.
 * <p>
 * Follows the generator of Apache Beam's NEXMark suite ({@code org.apache.beam.sdk.nexmark.sources.generator}:
 * {@code GeneratorConfig}, {@code Generator}, {@code model.BidGenerator}, {@code model.AuctionGenerator},
 * {@code model.PersonGenerator}, {@code model.PriceGenerator}) with the defaults of its
 * {@code NexmarkConfiguration}:
 * <ul>
 *   <li>The whole stream (persons, auctions, bids in proportion 1 : 3 : 46 in every 50 event numbers) runs
 *       at {@value #EVENTS_PER_SECOND} events per second of event time ({@code firstEventRate =
 *       nextEventRate = 10,000/s}): event number {@code n} has time {@code base + floor(n * 100 us / 1000)}
 *       ms. Only the bids (numbers with {@code n mod 50 >= 4}) are generated, so bids keep the time
 *       spacing they have in the full stream: 46 bids per 5 ms, about 217 s of event time per two million
 *       bids. The event number is the event id.</li>
 *   <li>Auction: with probability {@code 1 - 1/hotAuctionRatio} ({@code hotAuctionRatio = 2}) the hot one,
 *       the first of the group of {@value #HOT_GROUP} auctions holding the last auction opened; otherwise
 *       uniform among the last {@code numInFlightAuctions = 100} auctions opened plus the
 *       {@value #ID_LEAD} ids yet to be opened.</li>
 *   <li>Bidder: with probability {@code 1 - 1/hotBiddersRatio} ({@code hotBiddersRatio = 4}) the hot one,
 *       the second person of the group of {@value #HOT_GROUP} holding the last person created; otherwise
 *       uniform among the last {@code numActivePeople = 1000} people plus the {@value #ID_LEAD} yet to
 *       come.</li>
 *   <li>Ids start at 1000 ({@code FIRST_AUCTION_ID}, {@code FIRST_PERSON_ID}); the last auction and
 *       person at event number {@code n} follow from the 1 : 3 : 46 proportions, as in Beam.</li>
 *   <li>Price, in cents: {@code round(10^(6u) * 100)} with {@code u} uniform in {@code [0, 1)}, so 1.00 to
 *       1,000,000.00, uniform in its logarithm.</li>
 * </ul>
 * Simplified: one generator on one timeline ({@code numEventGenerators = 1}, where Beam's default splits
 * the rate over 100 interleaved generators); one {@link SplittableRandom} stream for the whole run (Beam
 * seeds a {@code java.util.Random} with each event id), so the ids and prices have NEXMark's
 * distributions but not its exact values; no persons or auctions are written; events are in time order
 * ({@code outOfOrderGroupSize = 1}, the default) and the wall-clock delays of Beam's unbounded source
 * ({@code probDelayedEvent}) are not modelled; the bid's {@code extra} padding and time jitter are left out.
 * <p>
 * The journal key is {@code "a" + auction} or {@code "p" + bidder} ({@link KeyedBy}), the value the price.
 * <p>
 * A generator is a mutable flyweight: {@link #next()} overwrites the current bid; it allocates nothing.
 * Not thread-safe: one owner thread.
 */
final class NexmarkBids
{
    /**
     * What the journal key of a bid is.
     */
    enum KeyedBy
    {
        /** {@code "a" + auction id}: queries 5 and 7. */
        AUCTION,
        /** {@code "p" + bidder id}: query 11. */
        BIDDER
    }

    static final int PERSON_PROPORTION = 1;
    static final int AUCTION_PROPORTION = 3;
    static final int BID_PROPORTION = 46;
    static final int PROPORTION_DENOMINATOR = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;
    static final long FIRST_AUCTION_ID = 1_000;
    static final long FIRST_PERSON_ID = 1_000;
    static final int EVENTS_PER_SECOND = 10_000;
    static final long INTER_EVENT_DELAY_MICROS = 1_000_000 / EVENTS_PER_SECOND;
    static final int HOT_AUCTION_RATIO = 2;
    static final int HOT_BIDDERS_RATIO = 4;
    static final int HOT_GROUP = 100;
    static final int IN_FLIGHT_AUCTIONS = 100;
    static final int ACTIVE_PEOPLE = 1_000;
    static final int ID_LEAD = 10;
    static final long BASE_TIME = 1_700_000_000_000L;

    private final SplittableRandom random;
    private long nextEventNumber;
    private long eventId;
    private long eventTime;
    private long auction;
    private long bidder;
    private long price;

    /**
     * @param seed the seed: the same seed gives the same bids.
     */
    NexmarkBids(final long seed)
    {
        this.random = new SplittableRandom(seed);
    }

    /**
     * Fill a new journal, in a new temporary directory, with bids.
     *
     * @param bids    how many bids.
     * @param keyedBy what the key of each event is.
     * @param seed    the seed.
     * @return the journal directory (its parent is the temporary directory).
     * @throws IOException if the temporary directory cannot be made.
     */
    static Path filledJournal(final int bids, final KeyedBy keyedBy, final long seed) throws IOException
    {
        final Path dir = Files.createTempDirectory("weir-nexmark-");
        final Path journalDir = dir.resolve("journal");
        final String prefix = keyedBy == KeyedBy.AUCTION ? "a" : "p";
        final long firstId = keyedBy == KeyedBy.AUCTION ? FIRST_AUCTION_ID : FIRST_PERSON_ID;
        final NexmarkBids generator = new NexmarkBids(seed);
        int[] keyIds = new int[4_096];
        Arrays.fill(keyIds, -1);
        try (EventJournal journal = EventJournal.openOrCreate(journalDir))
        {
            for (int i = 0; i < bids; i++)
            {
                generator.next();
                final long id = keyedBy == KeyedBy.AUCTION ? generator.auction() : generator.bidder();
                final int index = Math.toIntExact(id - firstId);
                if (index >= keyIds.length)
                {
                    final int oldLength = keyIds.length;
                    keyIds = Arrays.copyOf(keyIds, Math.max(oldLength * 2, index + 1));
                    Arrays.fill(keyIds, oldLength, keyIds.length, -1);
                }
                int keyId = keyIds[index];
                if (keyId < 0)
                {
                    keyId = journal.keyId(prefix + id);
                    keyIds[index] = keyId;
                }
                journal.append(generator.eventId(), generator.eventTime(), keyId, generator.price());
            }
        }
        return journalDir;
    }

    /**
     * Generate the next bid of the stream.
     */
    void next()
    {
        long n = nextEventNumber;
        final long offset = n % PROPORTION_DENOMINATOR;
        if (offset < PERSON_PROPORTION + AUCTION_PROPORTION)
        {
            n += PERSON_PROPORTION + AUCTION_PROPORTION - offset; // skip the person and auctions of this group
        }
        nextEventNumber = n + 1;
        eventId = n;
        eventTime = BASE_TIME + (n * INTER_EVENT_DELAY_MICROS) / 1_000;

        final long epoch = n / PROPORTION_DENOMINATOR;
        // at a bid, the last auction and person opened are the last ones of this group of 50 events
        final long lastAuction = epoch * AUCTION_PROPORTION + AUCTION_PROPORTION - 1;
        final long lastPerson = epoch * PERSON_PROPORTION + PERSON_PROPORTION - 1;

        final long auctionBase0;
        if (random.nextInt(HOT_AUCTION_RATIO) > 0)
        {
            auctionBase0 = (lastAuction / HOT_GROUP) * HOT_GROUP;
        }
        else
        {
            final long oldest = Math.max(lastAuction - IN_FLIGHT_AUCTIONS, 0);
            auctionBase0 = oldest + random.nextLong(lastAuction - oldest + 1 + ID_LEAD);
        }
        auction = FIRST_AUCTION_ID + auctionBase0;

        final long bidderBase0;
        if (random.nextInt(HOT_BIDDERS_RATIO) > 0)
        {
            bidderBase0 = (lastPerson / HOT_GROUP) * HOT_GROUP + 1; // the second: hot sellers are the first
        }
        else
        {
            final long people = lastPerson + 1;
            final long active = Math.min(people, ACTIVE_PEOPLE);
            bidderBase0 = people - active + random.nextLong(active + ID_LEAD);
        }
        bidder = FIRST_PERSON_ID + bidderBase0;

        price = Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
    }

    /** @return the current bid's event id, its event number in the whole stream. */
    long eventId()
    {
        return eventId;
    }

    /** @return the current bid's event time, epoch ms. */
    long eventTime()
    {
        return eventTime;
    }

    /** @return the current bid's auction id. */
    long auction()
    {
        return auction;
    }

    /** @return the current bid's bidder (person) id. */
    long bidder()
    {
        return bidder;
    }

    /** @return the current bid's price, cents. */
    long price()
    {
        return price;
    }
}
