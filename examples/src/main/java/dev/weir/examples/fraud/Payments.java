package dev.weir.examples.fraud;

import java.util.SplittableRandom;

/**
 * A seeded stream of card payments with injected fraud: most cards pay now and then (amounts up to
 * 500.00, in cents), and every {@code fraudEvery} payments one card, never used before, makes a burst of
 * {@link #BURST} large payments a second apart. Event time advances 2 ms per payment (500 payments per
 * second of card traffic). Not thread-safe: one producer thread.
 */
final class Payments
{
    /** Payments in an injected burst. */
    static final int BURST = 10;

    private static final long MS_PER_PAYMENT = 2;
    private static final long BURST_SPACING_MS = 1_000;

    private final SplittableRandom random;
    private final int cards;
    private final int fraudEvery;
    private int burstLeft;
    private int burstCard;
    private long burstNext;
    private int fraudCards;

    long eventTime;
    int card;
    long amount;
    boolean fraud;

    Payments(final long seed, final int cards, final int fraudEvery)
    {
        this.random = new SplittableRandom(seed);
        this.cards = cards;
        this.fraudEvery = fraudEvery;
    }

    /**
     * Move to payment {@code i}: its time, card (0..cards-1 for ordinary cards, cards + n for the n-th
     * fraudulent one) and amount.
     *
     * @param i the payment's number, from 0.
     */
    void next(final long i)
    {
        eventTime = i * MS_PER_PAYMENT;
        if (burstLeft == 0 && i > 0 && i % fraudEvery == 0)
        {
            burstLeft = BURST;
            burstCard = cards + fraudCards++;
            burstNext = eventTime;
        }
        if (burstLeft > 0 && eventTime >= burstNext)
        {
            burstLeft--;
            burstNext += BURST_SPACING_MS;
            card = burstCard;
            amount = 80_000 + random.nextInt(20_000);
            fraud = true;
            return;
        }
        card = random.nextInt(cards);
        amount = 100 + random.nextInt(50_000);
        fraud = false;
    }

    /**
     * @param card a card number.
     * @return its key.
     */
    static String key(final int card)
    {
        return "card-" + card;
    }
}
