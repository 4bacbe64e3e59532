/* Pasting doubles an identifier sixteen times (64 KiB); repetition turns it
 * into gigabytes of preprocessed output. */
#define C(a) a##a
#define D(a) C(a)
#define T D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(x))))))))))))))))
#define T2 T T T T T T T T T T T T T T T T
#define T3 T2 T2 T2 T2 T2 T2 T2 T2 T2 T2 T2 T2 T2 T2 T2 T2
#define T4 T3 T3 T3 T3 T3 T3 T3 T3 T3 T3 T3 T3 T3 T3 T3 T3
#define T5 T4 T4 T4 T4 T4 T4 T4 T4 T4 T4 T4 T4 T4 T4 T4 T4
int T5;
