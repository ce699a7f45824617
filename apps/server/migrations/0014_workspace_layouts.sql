-- Reserved for issue 12 work in progress; replaced by its migration or removed before the session ends.
SELECT 1;
