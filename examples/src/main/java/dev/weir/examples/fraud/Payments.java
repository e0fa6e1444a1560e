package dev.weir.examples.fraud;

import java.util.SplittableRandom;

/**
 * A seeded stream of card payments with injected fraud. Most cards pay now and then (amounts up to 500.00, in
 * cents) where they are: in their home country ({@link CardProfiles#home}) or, one payment in {@link #TRAVEL}, in a
 * country drawn at random; in a shop of that country, or online, at one of {@link #MERCHANTS} merchants. Every
 * {@code fraudEvery} payments one card, never used before, makes a burst of {@link #BURST} large online payments a
 * second apart, each at another merchant, all from one country that is not the card's home, the first
 * {@link #BURST_DECLINED} declined (a stolen card being tried out); ordinary payments are declined 2% of the time.
 * Each payment pays a 1.5% fee. Event time advances 2 ms per payment (500 payments per second of card traffic).
 * <p>
 * Three bursts change their card's profile, appended just before the burst's first payment ({@link #change}):
 * the second burst's card has its limit raised to {@link CardProfiles#RAISED_LIMIT_CENTS} from then on; the third's
 * moves home to the burst's country from the burst's fifth payment on (a row valid from the future); the fourth's
 * is deleted from the burst's sixth payment on (a tombstone: the card is closed).
 * <p>
 * Not thread-safe: one producer thread.
 */
final class Payments
{
    /** The columns of a payment, after {@code event_id} and {@code event_time}. */
    static final String COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2),fee:decimal(2),channel:string,status:string";
    /** Payments in an injected burst. */
    static final int BURST = 10;
    /** Merchants payments go to. */
    static final int MERCHANTS = 2_000;
    /** The countries: merchant {@code m} is in {@code COUNTRIES[m % COUNTRIES.length]}. */
    static final String[] COUNTRIES = {"FR", "DE", "IT", "ES", "NL"};
    /** The channels: in a shop, or online. */
    static final String[] CHANNELS = {"pos", "online"};
    /** The statuses: approved, or declined by the issuer. */
    static final String[] STATUSES = {"approved", "declined"};
    /** Payments of an injected burst that are declined: the first ones, while the thief tries the card out. */
    static final int BURST_DECLINED = 3;

    /** One ordinary payment in {@value} is made in a country drawn at random (its home, one time in five). */
    static final int TRAVEL = 50;

    /** A change of a card's profile that a burst brings. */
    enum ProfileChange
    {
        /** No change. */
        NONE,
        /** The card's limit is raised to {@link CardProfiles#RAISED_LIMIT_CENTS}. */
        RAISED_LIMIT,
        /** The card's home moves to the burst's country. */
        MOVED_HOME,
        /** The card is deleted from the table. */
        DELETED
    }

    private static final long MS_PER_PAYMENT = 2;
    private static final long BURST_SPACING_MS = 1_000;
    /** The bursts whose card changes: the second's limit is raised, the third's home moves, the fourth's is deleted. */
    private static final ProfileChange[] BURST_CHANGES = {ProfileChange.NONE, ProfileChange.RAISED_LIMIT, ProfileChange.MOVED_HOME,
        ProfileChange.DELETED};

    private final SplittableRandom random;
    private final int cards;
    private final int fraudEvery;
    private int burstLeft;
    private int burstCard;
    private long burstNext;
    private int burstCountry;
    private int fraudCards;

    long eventTime;
    int card;
    int merchant;
    int country;
    long amount;
    long fee;
    int channel;
    int status;
    boolean fraud;
    /** The change of this payment's card's profile to append before the payment. */
    ProfileChange change = ProfileChange.NONE;
    /** The time the change is valid from. */
    long changeFrom;

    Payments(final long seed, final int cards, final int fraudEvery)
    {
        this.random = new SplittableRandom(seed);
        this.cards = cards;
        this.fraudEvery = fraudEvery;
    }

    /**
     * Move to payment {@code i}: its time, card (0..cards-1 for ordinary cards, cards + n for the n-th
     * fraudulent one), merchant, country, amount, fee, channel and status, and the change of its card's profile
     * that comes before it, if any.
     *
     * @param i the payment's number, from 0.
     */
    void next(final long i)
    {
        eventTime = i * MS_PER_PAYMENT;
        change = ProfileChange.NONE;
        if (burstLeft == 0 && i > 0 && i % fraudEvery == 0)
        {
            burstLeft = BURST;
            burstCard = cards + fraudCards;
            burstNext = eventTime;
            burstCountry = (CardProfiles.home(burstCard) + 1 + random.nextInt(COUNTRIES.length - 1)) % COUNTRIES.length;
            change = fraudCards < BURST_CHANGES.length ? BURST_CHANGES[fraudCards] : ProfileChange.NONE;
            changeFrom = eventTime + (change == ProfileChange.MOVED_HOME ? 4 : change == ProfileChange.DELETED ? 5 : 0) * BURST_SPACING_MS;
            fraudCards++;
        }
        if (burstLeft > 0 && eventTime >= burstNext)
        {
            burstLeft--;
            burstNext += BURST_SPACING_MS;
            card = burstCard;
            merchant = (int)((burstCard * 7919L + burstLeft * 101L) % MERCHANTS); // ten distinct merchants
            amount = 80_000 + random.nextInt(20_000);
            fee = fee(amount);
            channel = 1;
            country = burstCountry;
            status = burstLeft >= BURST - BURST_DECLINED ? 1 : 0; // burstLeft was just decremented: 9, 8, 7 are the first three
            fraud = true;
            return;
        }
        card = random.nextInt(cards);
        amount = 100 + random.nextInt(50_000);
        fee = fee(amount);
        status = random.nextInt(50) == 0 ? 1 : 0; // 2% declined
        channel = random.nextInt(4) == 0 ? 1 : 0;
        country = random.nextInt(TRAVEL) == 0 ? random.nextInt(COUNTRIES.length) : CardProfiles.home(card);
        // online at any merchant; in a shop, at one of the country's (merchant m is in country m % COUNTRIES.length)
        merchant = channel == 1 ? random.nextInt(MERCHANTS) : country + COUNTRIES.length * random.nextInt(MERCHANTS / COUNTRIES.length);
        fraud = false;
    }

    /** @return the acquirer's fee on an amount, in cents: 1.5%, rounded down. */
    static long fee(final long amountCents)
    {
        return amountCents * 15 / 1_000;
    }

    /**
     * @param card a card number.
     * @return its text in the card column.
     */
    static String card(final int card)
    {
        return "card-" + card;
    }

    /**
     * @param merchant a merchant number.
     * @return its name in the merchant column: some hold a comma and quotes, as real shop names do.
     */
    static String merchant(final int merchant)
    {
        return merchant % 100 == 7 ? "Café \"" + merchant + "\", Paris" : "merchant-" + merchant;
    }
}
