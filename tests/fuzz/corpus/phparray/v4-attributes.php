<?php

use Illuminate\Support\Str;

return [

    /*
    | Sites, with the v4 keys cms-api does not use.
    */

    'sites' => [

        'en' => [
            'name' => env('APP_NAME', 'Example'),
            'locale' => 'en_US',
            'lang' => 'en',
            'url' => env('APP_URL', '/'),
            'direction' => 'ltr',
            'attributes' => ['theme' => "dark", 'order' => 1, 'beta' => false],
        ],

        'de' => [
            'name' => 'Deutsch',
            'locale' => 'de_DE',
            'url' => '/de/',
            'attributes' => [],
        ],
    ],
];
