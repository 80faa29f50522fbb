package io.gtran.lbv;

/**
 * How many of each vertex and edge the social dataset has for {@code persons} persons, and where
 * each vertex kind starts in the id space. Every count is a non-decreasing function of the person
 * count, so {@link #forEdges} can search for the person count whose edge total is nearest a target.
 */
record SocialSizes(long persons, long countries, long cities, long universities, long companies, long posts,
                   long comments, long knows, long likes) {
    static final int KNOWS_PER_PERSON = 10;
    static final int POSTS_PER_PERSON = 8;
    static final int COMMENTS_PER_PERSON = 16;
    static final int LIKES_PER_PERSON = 16;
    private static final long MIN_PERSONS = 10;
    /** Keeps {@link SocialDataset#postDate}'s {@code i * span} within a long. */
    private static final long MAX_PERSONS = 5_000_000;

    static SocialSizes ofPersons(long p) {
        long cities = clamp(p / 8, 10, 1343);
        long countries = clamp(cities / 12, 3, 111);
        long posts = POSTS_PER_PERSON * p;
        long comments = COMMENTS_PER_PERSON * p;
        // Caps keep the distinct-pair draws easy on tiny graphs: at most a quarter of all pairs.
        long knows = Math.min(KNOWS_PER_PERSON * p, p * (p - 1) / 4);
        long likes = Math.min(LIKES_PER_PERSON * p, p * (posts + comments) / 4);
        return new SocialSizes(p, countries, cities, clamp(p / 10, 5, 6380), clamp(p / 20, 5, 1575), posts, comments,
                knows, likes);
    }

    /** The sizes whose edge count is nearest {@code targetEdges} (about 93 edges a person). */
    static SocialSizes forEdges(long targetEdges) {
        long low = MIN_PERSONS;
        long high = MAX_PERSONS;
        if (ofPersons(high).edges() < targetEdges) {
            throw new IllegalArgumentException("targetEdges=" + targetEdges + " is above the social dataset's limit "
                    + ofPersons(high).edges());
        }
        while (low < high) { // smallest person count reaching the target
            long mid = (low + high) >>> 1;
            if (ofPersons(mid).edges() >= targetEdges) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        SocialSizes above = ofPersons(low);
        if (low > MIN_PERSONS) {
            SocialSizes below = ofPersons(low - 1);
            if (targetEdges - below.edges() < above.edges() - targetEdges) {
                return below;
            }
        }
        return above;
    }

    long studyAt() {
        return persons - (persons + 4) / 5;
    }

    /** Person {@code i} works at {@code i mod 3} companies. */
    long workAt() {
        return 3 * (persons / 3) + (persons % 3 == 2 ? 1 : 0);
    }

    long vertices() {
        return countries + cities + universities + companies + persons + posts + comments;
    }

    long edges() {
        return cities + universities + companies + persons + studyAt() + workAt() + knows + 2 * posts + 3 * comments
                + likes;
    }

    long countryId(long c) {
        return c;
    }

    long cityId(long c) {
        return countries + c;
    }

    long universityId(long u) {
        return countries + cities + u;
    }

    long companyId(long k) {
        return countries + cities + universities + k;
    }

    long personId(long p) {
        return countries + cities + universities + companies + p;
    }

    long postId(long i) {
        return personId(persons) + i;
    }

    long commentId(long j) {
        return postId(posts) + j;
    }

    private static long clamp(long value, long min, long max) {
        return Math.max(min, Math.min(max, value));
    }
}
