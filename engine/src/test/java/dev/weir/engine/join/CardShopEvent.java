package dev.weir.engine.join;

import dev.weir.journal.schema.EventView;

/** A test event of two columns: a card (string id {@link #key}) and a shop (long {@link #shop}); mutable, reused. */
final class CardShopEvent implements EventView
{
    long time;
    int key;
    long shop;

    CardShopEvent set(final long time, final int key, final long shop)
    {
        this.time = time;
        this.key = key;
        this.shop = shop;
        return this;
    }

    @Override
    public long eventId()
    {
        return 0;
    }

    @Override
    public long eventTime()
    {
        return time;
    }

    @Override
    public long longColumn(final int column)
    {
        return shop;
    }

    @Override
    public int stringId(final int column)
    {
        return key;
    }
}
