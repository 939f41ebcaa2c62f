#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_holds_the_shown_ply() {
        assert_eq!(window_around(0, 0), (1, 0));
        assert_eq!(window_around(10, 10), (1, 10));
        assert_eq!(window_around(3, 10), (1, 10));
        assert_eq!(window_around(1000, 1000), (961, 1000));
        assert_eq!(window_around(0, 1000), (1, 40));
        assert_eq!(window_around(500, 1000), (471, 510));
        assert_eq!(window_around(995, 1000), (961, 1000));
        for total in [1, 39, 40, 41, 100] {
            for shown in 0..=total {
                let (first, last) = window_around(shown, total);
                assert!(first >= 1 && last <= total && last - first < MOVE_WINDOW);
                assert!(
                    shown == 0 || (first..=last).contains(&shown),
                    "{shown} {total}"
                );
                assert_eq!(last - first + 1, MOVE_WINDOW.min(total));
            }
        }
    }
}
